import { expect, test, type Page } from '@playwright/test';
import { ADMIN, addUser, hydrated, signIn, signedInPage } from './helpers';
import { screenshots } from './screenshots';

const userRow = (page: Page, email: string) =>
  page.getByRole('table', { name: 'Users' }).locator(`tr[data-email="${email}"]`);

test('a role changes only once confirmed; cancelling puts the dropdown back', async ({
  page
}, testInfo) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  const ole = { email: 'ole@example.com', name: 'Ole Operator', role: 'operator' };
  await addUser(page, { ...ole, password: 'operator-password-1' });
  const row = userRow(page, ole.email);
  const select = row.getByLabel(`Role for ${ole.email}`);

  await select.selectOption('admin');
  const ask = page.getByRole('dialog', { name: /Change the role of ole@example.com/ });
  await expect(ask).toContainText('from operator to admin');
  await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  await expect(select).toHaveValue('operator');
  await page.reload();
  await hydrated(page);
  await expect(select).toHaveValue('operator');

  await select.selectOption('viewer');
  await page.getByRole('button', { name: 'Make Ole Operator viewer' }).click();
  await expect(page.getByRole('status').getByText('ole@example.com is now viewer.')).toBeVisible();
  await page.reload();
  await hydrated(page);
  await expect(select).toHaveValue('viewer');
  // One's own row offers no Disable: it would only be refused.
  await expect(userRow(page, ADMIN.email).getByRole('button', { name: 'Disable' })).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Disable' })).toBeVisible();
  await screenshots(page, testInfo, 'users');
});

test('an admin who demotes themself is warned, and the header and pages follow at once', async ({
  page,
  browser
}) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  const second = {
    email: 'adele@example.com',
    name: 'Adele Admin',
    role: 'admin',
    password: 'admin-password-22'
  };
  await addUser(page, second);
  const adele = await signedInPage(browser, second.email, second.password);
  await adele.goto('/users');
  await hydrated(adele);
  const header = adele.getByRole('banner');
  await expect(header).toContainText('admin');

  await userRow(adele, second.email)
    .getByLabel(`Role for ${second.email}`)
    .selectOption('operator');
  const ask = adele.getByRole('dialog', { name: /your own/ });
  await expect(ask).toContainText('You lose what admins may do at once, including this page');
  await ask.getByRole('button', { name: 'Make me operator' }).click();
  await expect(header).toContainText('operator');
  await expect(header).not.toContainText('admin');
  await expect(adele.locator('body')).toContainText('needs the admin role');
  await adele.context().close();
});
