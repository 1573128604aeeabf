import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { ADMIN, adminAddsAndSignsIn, hydrated, signIn } from './helpers';

// The container skill made here has this run's id in its own: Berth labels every container a
// run starts `berth.skill=<id>`, so only this file's leftovers are removed afterwards.
const RUN = randomUUID().slice(0, 8);
const SKILL = `e2e-wc-${RUN}`;

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
  await page.getByRole('searchbox', { name: 'Search skills' }).fill('echo');
  await page.getByRole('list', { name: 'Skills' }).getByRole('link', { name: /Echo/ }).click();
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
  await form.getByRole('button', { name: 'Run' }).click();
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
