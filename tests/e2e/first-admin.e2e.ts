import { expect, test } from '@playwright/test';
import { ADMIN, hydrated } from './helpers';

test('the first admin is created through the set-up page and lands in the console', async ({
  page
}) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/setup$/);
  await hydrated(page);
  await page.getByLabel('E-mail address').fill(ADMIN.email);
  await page.getByLabel('Name').fill(ADMIN.name);
  // Too short is stopped by the browser (minlength); different passwords by the server.
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('minlength', '10');
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByLabel('Repeat the password').fill(`${ADMIN.password}-typo`);
  await page.getByRole('button', { name: /create/i }).click();
  await expect(page.getByRole('alert')).toContainText('The two passwords differ');

  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByLabel('Repeat the password').fill(ADMIN.password);
  await page.getByRole('button', { name: /create/i }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('navigation')).toContainText('Users');
  await expect(page.locator('body')).toContainText(ADMIN.email);

  // Set-up is gone once a user exists.
  await page.goto('/setup');
  await expect(page).toHaveURL(/\/login|\/$/);
});
