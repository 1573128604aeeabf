import { expect, test } from '@playwright/test';
import { ADMIN, hydrated } from './helpers';

test('the first admin is created through the set-up page and lands in the console', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/setup$/);
  await hydrated(page);
  await page.getByLabel('E-mail address').fill(ADMIN.email);
  await page.getByLabel('Name').fill(ADMIN.name);
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Confirm password').fill('short');
  await page.getByRole('button', { name: /create/i }).click();
  await expect(page.getByRole('alert')).toContainText('at least 10 characters');

  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByLabel('Confirm password').fill(ADMIN.password);
  await page.getByRole('button', { name: /create/i }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('navigation')).toContainText('Users');
  await expect(page.locator('body')).toContainText(ADMIN.email);

  // Set-up is gone once a user exists.
  await page.goto('/setup');
  await expect(page).toHaveURL(/\/login|\/$/);
});
