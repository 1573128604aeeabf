import { expect, test } from '@playwright/test';
import { ADMIN, hydrated, signIn } from './helpers';
import { screenshots } from './screenshots';

test('the audit log filters by kind and text, and shows details in words', async ({
  page
}, testInfo) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  // The header's identity leads to the account page.
  await page
    .getByRole('banner')
    .getByRole('link', { name: /Ada Admin/ })
    .click();
  await expect(page).toHaveURL(/\/account$/);

  await page.goto('/audit');
  await hydrated(page);
  const table = page.getByRole('table', { name: 'Audit log' });
  const actions = table.locator('tbody code.action');
  await expect(actions.first()).toBeVisible();

  // The old rows stay until the filtered ones come: the assertions wait for the new list.
  await page.getByLabel('What').selectOption('login');
  await expect(actions.filter({ hasNotText: /^login(\.|$)/ })).toHaveCount(0);
  await expect(actions.first()).toHaveText(/^login/);

  await page.getByLabel('What').selectOption('');
  await page.getByLabel('Search').fill('system.start');
  await expect(actions.filter({ hasNotText: /^system\.start$/ })).toHaveCount(0);
  await expect(actions.first()).toHaveText('system.start');

  await page.getByLabel('Search').fill('no-such-thing-anywhere');
  await expect(table).toContainText('Nothing recorded yet.');
  // No raw `key=null` or `[]` reaches the page.
  await page.getByLabel('Search').fill('');
  await expect(actions.first()).toBeVisible();
  await expect(table).not.toContainText('=null');
  await screenshots(page, testInfo, 'audit');
});

test('Settings shows the configuration in force with its sources, and a reload says what it did', async ({
  page
}, testInfo) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/settings');
  await hydrated(page);
  const table = page.getByRole('table', { name: 'Configuration in force' });
  // The e2e Berth's file turns webhooks on; PORT comes from the environment, the rest are defaults.
  await expect(table.locator('tr[data-key="server.port"]')).toContainText('environment');
  await expect(table.locator('tr[data-key="server.port"]')).toContainText('$PORT');
  await expect(table.locator('tr[data-key="database.synchronous"]')).toContainText('default');
  await expect(table.locator('tr[data-key="webhooks.enabled"]')).toContainText('file');
  await page.getByLabel('Filter settings').fill('synchronous');
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await page.getByRole('button', { name: 'Reload the file' }).click();
  await expect(page.getByText('Reloaded: nothing changed.')).toBeVisible();
  await screenshots(page, testInfo, 'settings-configuration');
});
