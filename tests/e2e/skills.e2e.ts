import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { ADMIN, adminAddsAndSignsIn, hydrated, signIn } from './helpers';

// The container skill made here has this run's id in its own: Berth labels every container a
// run starts `berth.skill=<id>`, so only this file's leftovers are removed afterwards.
const RUN = randomUUID().slice(0, 8);
const SKILL = `e2e-wc-${RUN}`;
const IMAGE = 'berth-test/busybox:latest';

test.afterAll(() => {
  const ids = execFileSync('docker', ['ps', '-aq', '--filter', `label=berth.skill=${SKILL}`])
    .toString()
    .split('\n')
    .filter(Boolean);
  if (ids.length) execFileSync('docker', ['rm', '-f', ...ids]);
});

async function openSkills(page: Page): Promise<void> {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('navigation').getByRole('link', { name: 'Skills' }).click();
  await expect(page).toHaveURL(/\/skills/);
  await hydrated(page);
}

/** Counts the page's skills.trigger calls: a form the browser refuses must send none. */
function countTriggers(page: Page): () => number {
  let n = 0;
  page.on('request', (r) => {
    if (r.url().includes('skills.trigger')) n++;
  });
  return () => n;
}

test('the builtin echo skill runs from its form: the result, then its history row and details', async ({
  page
}) => {
  await openSkills(page);
  const triggers = countTriggers(page);
  // Keyboard only: search, Tab to the entry, Enter.
  const search = page.getByRole('searchbox', { name: 'Search skills' });
  await search.fill('echo');
  await search.press('Tab');
  await expect(
    page.getByRole('list', { name: 'Skills' }).getByRole('link', { name: /Echo/ })
  ).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\?skill=echo$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Echo' })).toBeVisible();

  // Echo lists no params: its form is the JSON editor, checked before anything is sent.
  const form = page.getByRole('form', { name: 'Params of Echo' });
  const json = form.getByLabel('Params (JSON)');
  await json.fill('{"greeting": ');
  await form.getByRole('button', { name: 'Run' }).click();
  await expect(form.getByRole('alert')).toContainText('Not valid JSON');
  await expect(json).toHaveAttribute('aria-invalid', 'true');
  expect(triggers()).toBe(0);

  await json.fill('{"greeting": "hello from e2e"}');
  await json.press('Tab');
  await expect(form.getByRole('button', { name: 'Run' })).toBeFocused();
  await page.keyboard.press('Enter');
  const latest = page.getByRole('region', { name: 'Latest run' });
  await expect(latest.locator('[data-status="completed"]')).toBeVisible();
  await expect(latest).toContainText('hello from e2e');
  await expect(page.getByRole('status').filter({ hasText: 'Echo completed' })).toBeVisible();
  expect(triggers()).toBe(1);

  const history = page.getByRole('table', { name: 'Run history' });
  const row = history.locator('tr[data-run]').first();
  await expect(row).toHaveAttribute('data-status', 'completed');
  await expect(row).toContainText(ADMIN.email);
  await expect(row).toContainText('console');
  await row.getByRole('button', { name: 'Open' }).click();
  const details = page.locator('#run-details');
  await expect(details).toBeFocused();
  await expect(details).toContainText('greeting');
  await expect(details).toContainText('hello from e2e');

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: 'test-results/skills-desktop.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/skills-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/skills-phone.png' });
});

test('a console container skill: made from the page, refused params stay in the browser, it runs live, is edited, then deleted', async ({
  page
}) => {
  test.setTimeout(60_000);
  await openSkills(page);
  const triggers = countTriggers(page);

  await page.getByRole('button', { name: 'New skill' }).click();
  const make = page.getByRole('form', { name: 'New skill' });
  await make.getByLabel('Id', { exact: true }).fill(SKILL);
  await make.getByLabel('Name', { exact: true }).fill(`Word count ${RUN}`);
  await make.getByLabel('Description').fill('Says hello on stderr, echoes its params as JSON.');
  await make.getByLabel('Image', { exact: true }).fill(IMAGE);
  await make
    .getByLabel('Command')
    .fill('sh\n-c\necho "counting for $PARAM_WHO" >&2; echo "second line" >&2; cat');
  await make.getByLabel('Memory (MiB)').fill('32');
  await make.getByLabel('Params schema (JSON Schema)').fill(
    JSON.stringify({
      type: 'object',
      required: ['who'],
      properties: {
        who: { type: 'string', title: 'Who', minLength: 2, description: 'A name' },
        times: { type: 'integer', minimum: 1, maximum: 3 }
      }
    })
  );
  await page.screenshot({ path: 'test-results/skills-new-skill.png' });
  await make.getByRole('button', { name: 'Create skill' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Created ${SKILL}` })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: `Word count ${RUN}` })).toBeVisible();
  await expect(page.getByText(IMAGE, { exact: false }).first()).toBeVisible();

  // The generated form: a required text field and a bounded number; bad values never leave.
  const form = page.getByRole('form', { name: `Params of Word count ${RUN}` });
  const who = form.getByRole('textbox', { name: /Who/ });
  const times = form.getByRole('textbox', { name: /times/ });
  await times.fill('9');
  await form.getByRole('button', { name: 'Run' }).click();
  await expect(who).toHaveAttribute('aria-invalid', 'true');
  await expect(who).toBeFocused();
  await expect(who).toHaveAccessibleDescription(/Required/);
  await expect(times).toHaveAccessibleDescription(/3/);
  await page.screenshot({ path: 'test-results/skills-form-errors.png' });
  expect(triggers()).toBe(0);

  await who.fill('ada');
  await times.fill('2');
  await form.getByRole('button', { name: 'Run' }).click();
  const latest = page.getByRole('region', { name: 'Latest run' });
  const log = latest.getByRole('log', { name: 'Logs of the latest run' });
  await expect(log.locator('[data-stream="stderr"]').first()).toContainText('counting for ada');
  await expect(log.locator('[data-stream="stderr"]')).toHaveCount(2);
  await expect(latest.locator('[data-status="completed"]')).toBeVisible({ timeout: 20_000 });
  // stdout was the params back as JSON: the result is a tree, not text.
  const output = latest.getByLabel('Output');
  await expect(output.locator('details').first()).toBeVisible();
  await expect(output).toContainText('ada');
  await expect(
    page.getByRole('table', { name: 'Run history' }).locator('tr[data-run]').first()
  ).toHaveAttribute('data-status', 'completed');

  await latest.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/skills-container-run.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/skills-container-run-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  // Edited from the page: the facts follow.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const edit = page.getByRole('form', { name: `Edit ${SKILL}` });
  await expect(edit.getByLabel('Id', { exact: true })).toBeDisabled();
  await edit.getByLabel('Memory (MiB)').fill('48');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Saved ${SKILL}` })).toBeVisible();
  await expect(page.getByText('48 MiB memory')).toBeVisible();

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(SKILL);
  await dialog.getByRole('button', { name: `Delete ${SKILL}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Deleted ${SKILL}` })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Skills' })).not.toContainText(SKILL);
});

test('a viewer reads skills and their runs but sees Run disabled, with why', async ({
  page,
  browser
}) => {
  const viewer = {
    email: `viewer-${RUN}@example.com`,
    name: 'Vic Viewer',
    role: 'viewer',
    password: 'a-long-password-1'
  };
  const own = await adminAddsAndSignsIn(page, browser, viewer);
  await own.goto('/skills?skill=echo');
  await hydrated(own);
  await expect(own.getByRole('heading', { level: 2, name: 'Echo' })).toBeVisible();
  const run = own.getByRole('form', { name: 'Params of Echo' }).getByRole('button', {
    name: 'Run'
  });
  await expect(run).toBeDisabled();
  await expect(run).toHaveAccessibleDescription(/Viewers can look but not run/);
  await expect(own.getByRole('button', { name: 'New skill' })).toHaveCount(0);
  await expect(own.getByRole('table', { name: 'Run history' })).toBeVisible();
});
