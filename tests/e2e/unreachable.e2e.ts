import { expect, test } from '@playwright/test';
import { ADMIN, hydrated, signIn } from './helpers';

/**
 * Berth going away under an open console: the browser's requests are refused (as by a stopped
 * server) for the page's calls and for a navigation's data, and the page says so in words.
 */
test('a form and a navigation say Berth cannot be reached, not "Failed to fetch"', async ({
  page
}) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/users');
  await hydrated(page);
  await expect(page.getByRole('table', { name: 'Users' })).toContainText(ADMIN.email);

  await page.route('**/api/trpc/**', (route) => route.abort('connectionrefused'));
  const form = page.locator('form', { has: page.getByRole('button', { name: 'Create user' }) });
  await form.getByLabel('E-mail address').fill('nobody@example.com');
  await form.getByLabel('Name').fill('Nobody');
  await form.getByLabel('Password').fill('a-long-password-1');
  await form.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByRole('alert')).toContainText('Berth cannot be reached');
  await expect(page.locator('body')).not.toContainText('Failed to fetch');

  // A page whose data comes from the server (the placeholder of an area not built) cannot be
  // reached either; a link made here, since every area in the sidebar may be built.
  await page.route(/__data\.json/, (route) => route.abort('connectionrefused'));
  await page.evaluate(() => {
    const link = Object.assign(document.createElement('a'), { href: '/not-built-yet' });
    document.querySelector('main')!.append(link);
    link.click();
  });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Berth cannot be reached');
  await expect(page.locator('body')).not.toContainText('Internal Error');
});
