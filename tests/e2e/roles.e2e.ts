import { expect, test } from '@playwright/test';
import { ADMIN, adminAddsAndSignsIn, hydrated, signIn } from './helpers';

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
  // Refused inside the console's shell, like any other page: header and sidebar stay.
  await expect(viewer.getByRole('heading', { level: 1, name: 'Not allowed' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Containers' })).toBeVisible();
  await expect(viewer.getByRole('banner')).toContainText('Vera Viewer');
  await viewer.context().close();

  // Signing in with `next` pointing at a page the role may not see lands on the overview.
  const fresh = await browser.newContext();
  const again = await fresh.newPage();
  await again.goto('/users');
  await expect(again).toHaveURL(/\/login\?next=%2Fusers$/);
  await hydrated(again);
  await again.getByLabel('E-mail address').fill('vera@example.com');
  await again.getByLabel('Password', { exact: true }).fill('viewer-password-1');
  await again.getByRole('button', { name: 'Sign in' }).click();
  await expect(again).toHaveURL(/\/$/);
  await fresh.close();
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
