import { expect, test } from '@playwright/test';
import { ADMIN, hydrated, signIn } from './helpers';
import { screenshots } from './screenshots';

test('a mapping made in the console, previewed, answers a real delivery at once, is logged and goes when deleted', async ({
  page
}, testInfo) => {
  test.setTimeout(45_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await hydrated(page);

  // A webhook token for the sender, shown once.
  const tokens = page.getByRole('form', { name: 'Create a webhook token' });
  await tokens.getByLabel('Name').fill('e2e-sender');
  await tokens.getByRole('button', { name: 'Create token' }).click();
  const panel = page.getByTestId('secret-panel');
  const token = await panel.getByRole('textbox').inputValue();
  expect(token.length).toBeGreaterThan(20);
  await panel.getByRole('button', { name: 'Dismiss' }).click();

  await page.getByRole('button', { name: 'New mapping' }).click();
  const form = page.getByRole('form', { name: 'New mapping' });
  await form.getByLabel('Name', { exact: true }).fill('e2e-push');
  await form
    .getByLabel('Conditions', { exact: true })
    .fill('headers.x-github-event = push\nbody.ref = refs/heads/main');
  await form
    .getByLabel('Message', { exact: true })
    .fill('Push to {body.repository} by {body.pusher}');
  await form
    .getByLabel('Sample body (JSON)')
    .fill('{"ref": "refs/heads/dev", "repository": "acme/web", "pusher": "ada"}');
  const result = form.getByRole('status', { name: 'Preview result' });
  await expect(result).toContainText('✗ body.ref is not "refs/heads/main"');
  await expect(result).toContainText('Not matched');
  await form
    .getByLabel('Sample body (JSON)')
    .fill('{"ref": "refs/heads/main", "repository": "acme/web", "pusher": "ada"}');
  await expect(result).toContainText('Matched: a turn would be queued with');
  await expect(result).toContainText('Push to acme/web by ada');
  await form.getByRole('button', { name: 'Create mapping' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Created e2e-push' })).toBeVisible();

  // The same delivery, for real, from outside the browser.
  const delivery = await page.request.post('/hooks/e2e-push', {
    headers: { authorization: `Bearer ${token}`, 'x-github-event': 'push' },
    data: { ref: 'refs/heads/main', repository: 'acme/web', pusher: 'ada' }
  });
  expect(delivery.status()).toBe(200);
  expect(await delivery.json()).toMatchObject({ mapping: 'e2e-push' });

  await page.getByRole('button', { name: 'Refresh' }).click();
  const log = page.getByRole('table', { name: 'Deliveries' });
  const row = log.locator('tr[data-delivery]', { hasText: 'e2e-push' }).first();
  await expect(row).toContainText('200');
  await expect(row).toContainText('yes');
  await row.getByRole('button', { name: 'Details' }).click();
  await expect(log).toContainText('acme/web');
  await expect(log).toContainText('x-github-event');
  await expect(log).not.toContainText(token);

  const mapping = page
    .getByRole('table', { name: 'Mappings' })
    .locator('tr[data-mapping="e2e-push"]');
  await mapping.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: /Delete the mapping e2e-push/ })
    .getByRole('button', { name: 'Delete e2e-push' })
    .click();
  await expect(mapping).toHaveCount(0);
  const gone = await page.request.post('/hooks/e2e-push', {
    headers: { authorization: `Bearer ${token}` },
    data: { ref: 'refs/heads/main' }
  });
  expect(gone.status()).toBe(404);
  await screenshots(page, testInfo, 'webhooks');
});
