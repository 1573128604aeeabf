import { expect, test } from '@playwright/test';
import { ADMIN, hydrated, signIn } from './helpers';

/** Settings → Engines: an admin adds an engine by server paths, sees its health, removes it. */
test('an admin adds a TLS engine by server paths, sees why it is unusable, and removes it', async ({
  page
}) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/settings');
  await hydrated(page);
  const table = page.getByRole('table', { name: 'Engines' });
  await expect(table.locator('tr[data-engine="local"]')).toContainText('local socket');

  const form = page.locator('form', { has: page.getByRole('button', { name: 'Add engine' }) });
  await form.getByLabel('Name').fill('e2e-remote');
  await form.getByLabel('Host').fill('127.0.0.1');
  await form.getByLabel('Port').fill('1');
  await form.getByLabel('Certificates').selectOption('path');
  await form.getByLabel('Client certificate').fill('/nonexistent/e2e/cert.pem');
  await form.getByLabel('Client key').fill('/nonexistent/e2e/key.pem');
  await form.getByRole('button', { name: 'Add engine' }).click();

  await expect(page.getByRole('status').getByText('Added engine e2e-remote.')).toBeVisible();
  await expect(form.getByLabel('Port')).toHaveValue('2376');
  const row = table.locator('tr[data-engine="e2e-remote"]');
  await expect(row).toContainText('console');
  await expect(row).toContainText('key in server files');
  await expect(row).toContainText('cannot read its TLS files (ENOENT)');
  await expect(row).not.toContainText('key.pem');

  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(row).toContainText('Remove engine e2e-remote?');
  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('Removed engine e2e-remote.')).toBeVisible();
});
