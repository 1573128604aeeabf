import { expect, test } from '@playwright/test';
import { ADMIN, adminAddsAndSignsIn, signIn } from './helpers';

test('a viewer sees only what a viewer may, and admin pages refuse them', async ({
  page,
  browser
}) => {
  const viewer = await adminAddsAndSignsIn(page, browser, {
    email: 'vera@example.com',
    name: 'Vera Viewer',
    role: 'viewer',
    password: 'viewer-password-1'
  });
  const nav = viewer.getByRole('navigation');
  await expect(nav.getByRole('link', { name: 'Containers' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Audit' })).toHaveCount(0);

  const response = await viewer.goto('/users');
  expect(response?.status()).toBe(403);
  await expect(viewer.locator('body')).toContainText('needs the admin role');
  await viewer.context().close();
});

test('the console works on a narrow screen with the menu behind a button', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  const menu = page.getByRole('button', { name: /menu/i });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await page.getByRole('navigation').getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/users$/);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth
  );
  expect(overflow).toBeLessThanOrEqual(1);
  await context.close();
});
