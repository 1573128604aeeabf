import { expect, test } from '@playwright/test';
import { ADMIN, hydrated, signIn } from './helpers';

test('a wrong password is refused with a message and no session', async ({ page }) => {
  await signIn(page, ADMIN.email, 'not-the-password');
  await expect(page.getByRole('alert')).toContainText('Wrong e-mail address or password');
  await expect(page).toHaveURL(/\/login/);
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'berth_session')).toBeUndefined();
});

test('signing in returns to the page asked for, and signing out ends the session', async ({
  page
}) => {
  await page.goto('/audit');
  await expect(page).toHaveURL(/\/login\?next=%2Faudit$/);
  await hydrated(page);
  await page.getByLabel('E-mail address').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByRole('table', { name: 'Audit log' })).toContainText('login');

  const cookie = (await page.context().cookies()).find((c) => c.name === 'berth_session');
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe('Lax');

  await hydrated(page);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);

  // The old cookie is dead on the server too, not just removed from the browser.
  await page.context().addCookies([cookie!]);
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
});
