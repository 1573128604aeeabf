import { expect, test, type Page } from '@playwright/test';
import { ADMIN, hydrated, signIn } from './helpers';
import { screenshots } from './screenshots';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
});

/** The one-time secret panel: reads the secret, checks Copy, dismisses it; returns the secret. */
async function takeSecret(page: Page, prefix: 'brt_' | 'brk_'): Promise<string> {
  const panel = page.getByRole('status').filter({ hasText: 'will not be shown again' });
  await expect(panel).toBeVisible();
  await expect(panel).toBeFocused();
  const secret = await panel.getByRole('textbox').inputValue();
  expect(secret.startsWith(prefix)).toBe(true);
  await panel.getByRole('button', { name: 'Copy' }).click();
  await expect(panel).toContainText('Copied to the clipboard.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await panel.getByRole('button', { name: 'Dismiss' }).click();
  await expect(panel).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText(secret);
  return secret;
}

/** The HTTP status of an agent.list call made with this RPC token. */
async function rpcStatus(page: Page, token: string): Promise<number> {
  const res = await page.request.post('/rpc', {
    headers: { authorization: `Bearer ${token}` },
    data: { jsonrpc: '2.0', id: 1, method: 'agent.list', params: {} }
  });
  return res.status();
}

test('an admin creates an RPC token, sees the secret once, rotates and revokes it, confirming both', async ({
  page
}, testInfo) => {
  await page.goto('/tokens');
  await hydrated(page);
  const table = page.getByRole('table', { name: 'RPC tokens' });
  await expect(table).toContainText('No RPC tokens yet');

  const form = page.locator('form', { has: page.getByRole('button', { name: 'Create token' }) });
  await form.getByLabel('Name').fill('e2e-bot');
  // "All methods" takes over the single methods, and gives them back when unticked.
  const all = form.getByLabel('All methods (*)');
  await all.check();
  await expect(form.getByLabel('session.delete')).toBeDisabled();
  await all.uncheck();
  await expect(form.getByLabel('session.delete')).toBeEnabled();
  await form.getByLabel('agent.list').check();
  await form.getByLabel('system.health').check();
  await form.getByRole('button', { name: 'Create token' }).click();

  const secret = await takeSecret(page, 'brt_');
  const row = table.locator('tr[data-name="e2e-bot"]');
  await expect(row).toContainText(`${secret.slice(0, 8)}…`);
  await expect(row.getByRole('list', { name: 'Permissions of e2e-bot' })).toHaveText(
    /agent\.list\s*system\.health/
  );
  await expect(row).toContainText('console');
  await expect(form.getByLabel('Name')).toHaveValue('');

  // Rotating cuts the current secret off, so it asks first; cancelling changes nothing.
  expect(await rpcStatus(page, secret)).toBe(200);
  await row.getByRole('button', { name: 'Rotate' }).click();
  const rotateConfirm = row.getByRole('group', { name: /Rotate token e2e-bot\?/ });
  await expect(rotateConfirm).toContainText('current secret stops working at once');
  await expect(rotateConfirm).toContainText('WebSocket connections using it are closed');
  await expect(rotateConfirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await rotateConfirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(rotateConfirm).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Rotate' })).toBeFocused();
  await expect(page.getByTestId('secret-panel')).toHaveCount(0);
  await expect(row).toContainText(`${secret.slice(0, 8)}…`);
  expect(await rpcStatus(page, secret)).toBe(200);

  await page.keyboard.press('Enter');
  await rotateConfirm.getByRole('button', { name: 'Yes, rotate' }).click();
  const rotated = await takeSecret(page, 'brt_');
  expect(rotated).not.toBe(secret);
  await expect(rotateConfirm).toHaveCount(0);
  await expect(row).toContainText(`${rotated.slice(0, 8)}…`);
  expect(await rpcStatus(page, secret)).toBe(401);
  expect(await rpcStatus(page, rotated)).toBe(200);

  // Nothing brings a secret back: not a reload either.
  await page.reload();
  await hydrated(page);
  await expect(row).toBeVisible();
  await expect(page.locator('body')).not.toContainText(rotated);

  await row.getByRole('button', { name: 'Revoke' }).click();
  const confirm = row.getByRole('group', { name: /Revoke token e2e-bot/ });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Revoke' })).toBeFocused();
  await page.keyboard.press('Enter');
  await row.getByRole('button', { name: 'Yes, revoke' }).click();
  await expect(row).toHaveCount(0);
  await expect(
    page.getByRole('status').getByText('Revoked e2e-bot; it no longer works.')
  ).toBeVisible();
  await screenshots(page, testInfo, 'tokens');
});

test('a token needs a plain name and at least one permission', async ({ page }) => {
  await page.goto('/tokens');
  await hydrated(page);
  const form = page.locator('form', { has: page.getByRole('button', { name: 'Create token' }) });
  // The browser stops a name with a space before it is sent; the server would refuse it too.
  await form.getByLabel('Name').fill('has space');
  expect(
    await form.getByLabel('Name').evaluate((el: HTMLInputElement) => el.validity.patternMismatch)
  ).toBe(true);
  await form.getByLabel('Name').fill('no-perms');
  await form.getByRole('button', { name: 'Create token' }).click();
  await expect(form.getByRole('alert')).toHaveText('Choose at least one method, or all methods.');
  await expect(page.getByRole('table', { name: 'RPC tokens' })).not.toContainText('no-perms');
});

test('an admin creates and revokes a REST API key in Settings', async ({ page }) => {
  await page.goto('/settings');
  await hydrated(page);
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  const table = page.getByRole('table', { name: 'API keys' });
  // Other files' tests make keys of their own on the shared Berth: this one counts only its own.
  const row = table.locator('tr[data-name="e2e-key"]');
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await expect(row).toHaveCount(0);

  const form = page.locator('form', { has: page.getByRole('button', { name: 'Create API key' }) });
  await form.getByLabel('Name').fill('e2e-key');
  await form.getByLabel('Role').selectOption('viewer');
  await form.getByRole('button', { name: 'Create API key' }).click();

  const secret = await takeSecret(page, 'brk_');
  await expect(row).toContainText(`${secret.slice(0, 8)}…`);
  await expect(row).toContainText('viewer');

  await row.getByRole('button', { name: 'Revoke' }).click();
  await row.getByRole('button', { name: 'Yes, revoke' }).click();
  await expect(row).toHaveCount(0);
});
