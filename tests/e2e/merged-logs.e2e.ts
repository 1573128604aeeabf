import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN, addUser, hydrated, signIn, signedInPage } from './helpers';

/**
 * The merged logs page against the real engine: two labelled containers whose lines are
 * written one after the other (each `docker exec` returns before the next starts), so their
 * order in time is known. Only the containers labelled with this run are removed.
 */
const RUN = `e2e-merged-${randomUUID().slice(0, 8)}`;
const LABEL = `berth.test=${RUN}`;
const A = `berth-${RUN}-a`;
const B = `berth-${RUN}-b`;
const docker = (...args: string[]) =>
  execFileSync('docker', args, { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }).trim();

/** Writes a line to the container's own stdout, so it is in the engine's log. */
const say = (container: string, line: string) =>
  docker('exec', container, 'sh', '-c', `echo ${line} > /proc/1/fd/1`);

test.beforeAll(() => {
  for (const name of [A, B])
    docker('run', '-d', '--label', LABEL, '--name', name, 'berth-test/busybox', 'sleep', '3600');
  say(A, 'a-1');
  say(B, 'b-1');
});

test.afterAll(() => {
  const ids = docker('ps', '-aq', '--filter', `label=${LABEL}`).split(/\s+/).filter(Boolean);
  if (ids.length) docker('rm', '-f', ...ids);
});

/** The viewer's rows in view order: the container label and the text of each. */
async function rows(page: Page): Promise<{ source: string; text: string; colour: string }[]> {
  return page
    .getByRole('region', { name: 'Log lines' })
    .locator('[data-seq]')
    .evaluateAll((els) =>
      els.map((el) => ({
        source: el.querySelector('.src')?.textContent ?? '',
        text: el.querySelector('.text')?.textContent?.trim() ?? '',
        colour: getComputedStyle(el).borderLeftColor
      }))
    );
}

const ours = <T extends { text: string }>(all: T[]) => all.filter((r) => /^[ab]-\d$/.test(r.text));

function legendItem(page: Page, name: string): Locator {
  return page
    .getByRole('list', { name: 'Merged containers' })
    .locator(`li[data-container="${name}"]`);
}

test('two containers merged by time, a colour each, one hidden, one ended and followed again', async ({
  page
}) => {
  test.setTimeout(60_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);

  // The bulk bar's Logs opens the merged page for the selected rows.
  await page.goto('/containers');
  await hydrated(page);
  for (const name of [A, B]) await page.getByLabel(`Select ${name}`, { exact: true }).check();
  await page
    .getByRole('group', { name: 'Selected containers' })
    .getByRole('button', { name: 'Logs' })
    .click();
  // The address lists the selected rows in the table's order (newest first).
  await expect(page).toHaveURL(`/containers/logs?engine=local&c=${B}&c=${A}`);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Merged logs' })).toBeVisible();
  await expect(page.getByText('Engine local')).toBeVisible();

  // Lines from before the page (the tail) and after it (live) come in time order.
  await expect(legendItem(page, A).getByText('Live')).toBeVisible();
  await expect(legendItem(page, B).getByText('Live')).toBeVisible();
  for (const [c, line] of [
    [A, 'a-2'],
    [B, 'b-2'],
    [A, 'a-3'],
    [B, 'b-3']
  ] as const)
    say(c, line);
  const lines = page.getByRole('region', { name: 'Log lines' });
  await expect(lines.getByText(/^b-3$/)).toBeVisible();
  const merged = ours(await rows(page));
  expect(merged.map((r) => r.text)).toEqual(['a-1', 'b-1', 'a-2', 'b-2', 'a-3', 'b-3']);
  for (const r of merged) expect(r.source).toBe(r.text.startsWith('a') ? A : B);
  // Each line is marked with its container's colour, the one its legend shows.
  const swatch = (name: string) =>
    legendItem(page, name)
      .locator('.swatch')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
  const [colourA, colourB] = [await swatch(A), await swatch(B)];
  expect(colourA).not.toBe(colourB);
  for (const r of merged) expect(r.colour).toBe(r.text.startsWith('a') ? colourA : colourB);

  // Hiding B in the viewer leaves A's lines only.
  const toggles = page.getByRole('group', { name: 'Containers', exact: true });
  await toggles.getByRole('button', { name: B }).click();
  await expect(lines.getByText(/^b-3$/)).toHaveCount(0);
  expect(ours(await rows(page)).map((r) => r.text)).toEqual(['a-1', 'a-2', 'a-3']);
  await toggles.getByRole('button', { name: B }).click();
  await expect(lines.getByText(/^b-3$/)).toBeVisible();

  // B's stream ends when it is killed; after a restart, Follow again brings its new lines.
  docker('kill', B);
  await expect(legendItem(page, B).getByText('Stream ended')).toBeVisible();
  await expect(lines.getByText(/stream ended/)).toBeVisible();
  docker('start', B);
  await legendItem(page, B)
    .getByRole('button', { name: `Follow ${B} again` })
    .click();
  await expect(legendItem(page, B).getByText('Stream ended')).toHaveCount(0);
  say(B, 'b-4');
  await expect(lines.getByText(/^b-4$/)).toBeVisible();
  await expect(legendItem(page, A).getByRole('link', { name: /Download/ })).toHaveAttribute(
    'href',
    `/containers/${A}/logs?engine=local`
  );

  // Removing B from the view starts over with A alone, and the address follows.
  await legendItem(page, B)
    .getByRole('button', { name: `Remove ${B} from the view` })
    .click();
  await expect(page).toHaveURL(`/containers/logs?engine=local&c=${A}`);
  await expect(lines.getByText(/^a-3$/)).toBeVisible();
  expect(ours(await rows(page)).map((r) => r.text)).toEqual(['a-1', 'a-2', 'a-3']);
  await expect(legendItem(page, B)).toHaveCount(0);

  // More than the limit: the first six are shown and the page says so.
  const many = Array.from({ length: 7 }, (_, i) => `c=x${i}`).join('&');
  await page.goto(`/containers/logs?engine=local&${many}`);
  await hydrated(page);
  await expect(page.getByRole('alert')).toContainText(
    '7 containers asked; at most 6 at once, so the first 6 are shown.'
  );
  await expect(page.getByRole('list', { name: 'Merged containers' }).locator('li')).toHaveCount(6);
  await page.context().close();
});

test('a viewer opens the merged page from Containers and picks containers with the keyboard', async ({
  page,
  browser
}) => {
  const viewerUser = {
    email: 'vera.merged@example.com',
    name: 'Vera Viewer',
    role: 'viewer',
    password: 'viewer-password-1'
  };
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await addUser(page, viewerUser);
  const viewer = await signedInPage(browser, viewerUser.email, viewerUser.password);
  await viewer.goto('/containers');
  await hydrated(viewer);
  await expect(viewer.getByRole('checkbox')).toHaveCount(0);
  await viewer.getByRole('link', { name: 'Merged logs…' }).click();
  await expect(viewer).toHaveURL('/containers/logs?engine=local');
  await hydrated(viewer);

  const search = viewer.getByLabel('Search containers');
  await search.fill(A);
  await search.press('Tab');
  await expect(viewer.getByRole('checkbox', { name: A })).toBeFocused();
  await viewer.keyboard.press('Space');
  await expect(viewer).toHaveURL(`/containers/logs?engine=local&c=${A}`);
  await search.fill(B);
  await viewer.getByRole('checkbox', { name: B }).check();
  await expect(viewer).toHaveURL(`/containers/logs?engine=local&c=${A}&c=${B}`);
  const lines = viewer.getByRole('region', { name: 'Log lines' });
  await expect(lines.getByText(/^a-1$/)).toBeVisible();
  await expect(lines.getByText(/^b-1$/)).toBeVisible();
  await viewer.context().close();
});
