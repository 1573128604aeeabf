import { expect, test } from '@playwright/test';
import { ADMIN, apiKey, hydrated, signIn } from './helpers';
import { screenshots } from './screenshots';

test('sessions made over REST are listed, filtered, read, compacted and deleted after a confirmation', async ({
  page
}, testInfo) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  const key = await apiKey(page, 'e2e-sessions');
  for (const [session, message] of [
    ['e2e-alpha', 'help'],
    ['e2e-alpha', 'status'],
    ['e2e-alpha', 'help'],
    ['e2e-beta', 'status']
  ]) {
    const res = await page.request.post('/api/v1/chat/send', {
      headers: { authorization: `Bearer ${key}` },
      data: { message, session }
    });
    expect(res.status()).toBe(200);
  }

  await page.getByRole('navigation').getByRole('link', { name: 'Sessions' }).click();
  await expect(page).toHaveURL(/\/sessions$/);
  await hydrated(page);
  const table = page.getByRole('table', { name: 'Sessions' });
  await expect(table.locator('tr[data-key="e2e-alpha"]')).toContainText('6');
  await expect(table.locator('tr[data-key="e2e-beta"]')).toBeVisible();

  await page.getByLabel('Search keys').fill('beta');
  await expect(table.locator('tr[data-key="e2e-alpha"]')).toHaveCount(0);
  await expect(table.locator('tr[data-key="e2e-beta"]')).toBeVisible();
  await page.getByLabel('Search keys').fill('e2e-');

  await table.getByRole('link', { name: 'e2e-alpha' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'e2e-alpha' })).toBeVisible();
  const messages = page.getByRole('list', { name: 'Messages' }).locator('li');
  await expect(messages).toHaveCount(6);
  await expect(messages.first()).toContainText('help');

  await page.getByRole('button', { name: 'Compact' }).click();
  const compact = page.getByRole('dialog', { name: /Compact e2e-alpha/ });
  await compact.getByRole('button', { name: 'Compact' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Compacted: 2 older messages' })
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'Compacted earlier messages' })).toContainText(
    'user: help'
  );
  // The compacted messages are kept: collapsed under their summary, opened on request.
  const folded = page.locator('details.compacted');
  await expect(folded.locator('summary')).toContainText('2 compacted messages');
  await expect(folded.getByRole('list', { name: 'Messages' }).locator('li')).toBeHidden();
  await folded.locator('summary').click();
  await expect(folded.getByRole('list', { name: 'Messages' }).locator('li')).toHaveCount(2);
  await expect(messages).toHaveCount(6);

  await page.getByRole('button', { name: 'Delete…' }).click();
  const ask = page.getByRole('dialog', { name: /Delete e2e-alpha/ });
  await expect(ask).toContainText('Its 6 messages and its summary go for good');
  await ask.getByRole('button', { name: 'Delete e2e-alpha' }).click();
  await expect(page).toHaveURL(/\/sessions$/);
  await expect(table.locator('tr[data-key="e2e-beta"]')).toBeVisible();
  await expect(table.locator('tr[data-key="e2e-alpha"]')).toHaveCount(0);
  await screenshots(page, testInfo, 'sessions');
});
