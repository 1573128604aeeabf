import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { pack } from 'tar-stream';
import { ADMIN, hydrated, signIn } from './helpers';

/**
 * The build-file studio against the real engine: a workspace, a build file typed in the editor
 * with its diagnostics, a build followed live, its image on the Images page, and an archive
 * that tries to leave the workspace. Images carry `berth.test=<run>` and only those are removed.
 */
const RUN = `e2e-bf-${Date.now()}`;
const LABEL = `berth.test=${RUN}`;
const TAG = `berth-test/${RUN}:v1`;
const docker = (...args: string[]) =>
  execFileSync('docker', args, { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }).trim();

test.afterAll(() => {
  for (const id of docker('ps', '-aq', '--filter', `label=${LABEL}`).split(/\s+/))
    if (id) docker('rm', '-f', id);
  // Intermediate images carry the label too: children go before their parents, so a few
  // passes remove them all whatever order the engine lists them in.
  for (let pass = 0; pass < 4; pass++) {
    const ids = new Set(docker('images', '-aq', '--filter', `label=${LABEL}`).split(/\s+/));
    for (const id of ids)
      if (id)
        try {
          docker('rmi', '-f', id);
        } catch {
          // a parent of one still there: the next pass takes it
        }
  }
  expect(docker('images', '-aq', '--filter', `label=${LABEL}`)).toBe('');
});

async function tarWithEscape(): Promise<Buffer> {
  const tar = pack();
  tar.entry({ name: 'fine.txt' }, 'ok');
  tar.entry({ name: '../evil.txt' }, 'escape');
  tar.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of tar) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function newWorkspace(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New workspace' }).click();
  await page.getByLabel('New workspace name').fill(name);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByLabel('Workspace', { exact: true })).toHaveValue(/.+/);
  await expect(page.getByLabel('Workspace', { exact: true }).locator('option:checked')).toHaveText(
    name
  );
}

test('an operator writes a build file, sees its diagnostics, builds it and finds the image', async ({
  page
}) => {
  test.setTimeout(90_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/build-files');
  await hydrated(page);
  await newWorkspace(page, `studio ${RUN}`);

  await page.getByRole('button', { name: 'New file' }).click();
  await page.getByLabel('New file path').fill('Dockerfile');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  // Build files open in the CodeMirror editor (its content is the labelled textbox).
  const editor = page.getByRole('textbox', { name: 'Build file Dockerfile' });
  await expect(editor).toBeVisible();
  await editor.fill(
    `FROM berth-test/busybox\nLABEL ${LABEL}\nMAINTAINER someone\nRUN echo built-in-e2e\n`
  );
  const diagnostics = page.getByRole('list', { name: 'Diagnostics' });
  await expect(diagnostics).toContainText('MaintainerDeprecated');
  await expect(diagnostics).toContainText('UnpinnedBaseImage');
  // Clicking a diagnostic selects its line in the editor.
  await diagnostics.getByRole('button', { name: /MaintainerDeprecated/ }).click();
  await expect
    .poll(() => page.evaluate(() => document.getSelection()?.toString()))
    .toBe('MAINTAINER someone');
  await editor.press('ControlOrMeta+s');
  await expect(page.getByText('Saved Dockerfile.')).toBeVisible();

  await page.getByRole('button', { name: 'Build…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Build an image' });
  await dialog.getByLabel('Tag', { exact: true }).fill(TAG);
  await dialog.getByRole('button', { name: 'Build', exact: true }).click();
  const output = page.getByRole('log', { name: 'Build output' });
  await expect(output).toContainText('Step 1/', { timeout: 30_000 });
  await expect(output).toContainText('built-in-e2e', { timeout: 30_000 });
  await expect(output).toContainText(`Built ${TAG}`, { timeout: 30_000 });
  // The step line links to the build file's line.
  await output.getByRole('button', { name: /^Step 4\/\d+ : RUN/ }).click();
  await expect
    .poll(() => page.evaluate(() => document.getSelection()?.toString()))
    .toBe('RUN echo built-in-e2e');
  // Completion after FROM offers the engine's images (not saved: the build is done).
  await editor.press('ControlOrMeta+End');
  await page.keyboard.type('\nFROM berth-test/bu');
  await expect(page.locator('.cm-tooltip-autocomplete')).toContainText('berth-test/busybox:latest');
  await page.keyboard.press('Escape');

  const history = page.getByRole('list', { name: 'Build history' });
  await expect(history).toContainText('succeeded');
  await history.getByRole('link', { name: /^image / }).click();
  await expect(page).toHaveURL(/\/images/);
  await expect(page.getByRole('table', { name: 'Images' })).toContainText(TAG);
});

test('an archive with ../ entries is refused, naming the entry', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/build-files');
  await hydrated(page);
  await newWorkspace(page, `escape ${RUN}`);
  await page.getByLabel('Tar archive to upload').setInputFiles({
    name: 'evil.tar',
    mimeType: 'application/x-tar',
    buffer: await tarWithEscape()
  });
  await expect(page.getByRole('alert')).toContainText(
    'archive entry "../evil.txt" leaves the workspace (..): nothing was unpacked'
  );
  await expect(page.getByRole('list', { name: 'Files' })).toHaveCount(0);
});
