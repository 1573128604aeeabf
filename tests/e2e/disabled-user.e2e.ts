import { expect, test } from '@playwright/test';
import { adminAddsAndSignsIn, hydrated, signIn } from './helpers';

test('a user disabled while signed in is thrown out live and cannot sign in again', async ({
  page,
  browser
}) => {
  const otto = await adminAddsAndSignsIn(page, browser, {
    email: 'otto@example.com',
    name: 'Otto Operator',
    role: 'operator',
    password: 'operator-password-1'
  });
  await hydrated(otto);
  // Wait until the console's live socket is up, so the push can reach it.
  await expect(otto.locator('[data-live="connected"]')).toBeAttached();

  const row = page
    .getByRole('table', { name: 'Users' })
    .locator('tr[data-email="otto@example.com"]');
  await row.getByRole('button', { name: 'Disable' }).click();
  const confirm = page.getByRole('dialog', { name: /Disable otto@example.com/ });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Disable Otto Operator' }).click();
  await expect(row).toContainText('Disabled');

  await expect(otto).toHaveURL(/\/login/, { timeout: 10_000 });
  await signIn(otto, 'otto@example.com', 'operator-password-1');
  await expect(otto.getByRole('alert')).toContainText('This account is disabled');
  // A wrong password says nothing of the account.
  await signIn(otto, 'otto@example.com', 'not-the-password-1');
  await expect(otto.getByRole('alert')).toContainText('Wrong e-mail address or password');
  await otto.context().close();
});
