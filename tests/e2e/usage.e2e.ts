import { expect, test } from '@playwright/test';
import { ADMIN, apiKey, hydrated, signIn } from './helpers';
import { screenshots } from './screenshots';

test('usage shows the messages and turns of work done over REST, by day and by agent', async ({
  page
}, testInfo) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/usage');
  await hydrated(page);
  const totals = page.getByRole('list', { name: 'Totals in the range' });
  await expect(totals).not.toContainText('…');
  const count = async (what: string) =>
    Number(
      (await totals.locator('li', { hasText: what }).locator('.figure').textContent())!.replace(
        /\D/g,
        ''
      )
    );
  const [messagesBefore, turnsBefore] = [await count('messages'), await count('turns')];

  const key = await apiKey(page, 'e2e-usage');
  // The turns' day (UTC) is this one or, if a run crosses midnight, a later one.
  const sentFrom = new Date().toISOString().slice(0, 10);
  for (const message of ['help', 'status', 'help']) {
    const res = await page.request.post('/api/v1/chat/send', {
      headers: { authorization: `Bearer ${key}` },
      data: { message, session: 'e2e-usage' }
    });
    expect(res.status()).toBe(200);
  }
  await page.reload();
  await hydrated(page);
  await expect(totals).not.toContainText('…');
  // Each turn records the user's message and the reply.
  expect(await count('messages')).toBe(messagesBefore + 6);
  expect(await count('turns')).toBe(turnsBefore + 3);

  const byAgent = page.getByRole('list', { name: 'Messages by agent' });
  await expect(byAgent.locator('li', { hasText: 'main' })).toBeVisible();
  // The REST key that caused the turns has its own bar.
  const byCredential = page.getByRole('list', { name: 'Messages by credential' });
  await expect(byCredential.locator('li', { hasText: /^apikey:/ }).first()).toBeVisible();
  await page.getByLabel('Turns').check();
  await expect(page.getByRole('list', { name: 'Turns by agent' })).toBeVisible();
  await page.getByText('Figures').click();
  // The days add up to the total, and the days since the sends (UTC) hold at least the three
  // just made. Other tests' turns may fall on an earlier day when a run crosses midnight.
  const perDay = page.getByRole('table', { name: 'Turns per day' });
  const days = await perDay.locator('tbody tr').evaluateAll((rows) =>
    rows.map((row) => ({
      day: /\d{4}-\d{2}-\d{2}/.exec(row.textContent ?? '')?.[0] ?? '',
      turns: Number((row.querySelector('td.num')?.textContent ?? '').replace(/\D/g, ''))
    }))
  );
  expect(days.reduce((sum, d) => sum + d.turns, 0)).toBe(turnsBefore + 3);
  const sinceSent = days.filter((d) => d.day >= sentFrom);
  expect(sinceSent.reduce((sum, d) => sum + d.turns, 0)).toBeGreaterThanOrEqual(3);

  // A range with nothing in it says so.
  await page.getByLabel('From', { exact: true }).fill('2001-01-01');
  await page.getByLabel('To', { exact: true }).fill('2001-01-02');
  await page.getByLabel('To', { exact: true }).dispatchEvent('change');
  // Both the by-agent and the by-credential cards.
  await expect(page.getByText('Nothing in this range.')).toHaveCount(2);
  await expect(page.getByText('Nothing in this range.').first()).toBeVisible();
  await screenshots(page, testInfo, 'usage');
});
