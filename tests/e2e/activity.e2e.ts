import { expect, test, type Page } from '@playwright/test';
import { ADMIN, apiKey, hydrated, signIn } from './helpers';
import { screenshots } from './screenshots';

/** A webhook token made through the console's own API, from the signed-in page. */
async function webhookToken(page: Page, name: string): Promise<string> {
  return page.evaluate(async (tokenName) => {
    const res = await fetch('/api/trpc/webhooks.tokens.create', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: tokenName })
    });
    const body = (await res.json()) as { result: { data: { token: string } } };
    return body.result.data.token;
  }, name);
}

test('turns from REST and wake events from a webhook arrive live, filter, open their details, and the delivery log leads there', async ({
  page
}, info) => {
  test.setTimeout(90_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  const key = await apiKey(page, 'e2e-activity');
  const token = await webhookToken(page, 'e2e-activity');

  await page.getByRole('navigation').getByRole('link', { name: 'Activity' }).click();
  await expect(page).toHaveURL(/\/activity$/);
  await hydrated(page);
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  const rows = page.getByRole('list', { name: 'Activity' });

  // A turn over REST shows up live, with its source, and ends completed.
  const sent = await page.request.post('/api/v1/chat/send', {
    headers: { authorization: `Bearer ${key}` },
    data: { message: 'status', session: 'e2e-activity' }
  });
  expect(sent.status()).toBe(200);
  const { turnId } = (await sent.json()) as { turnId: string };
  const turnRow = rows.locator(`[data-activity="${turnId}"]`);
  await expect(turnRow).toHaveAttribute('data-state', 'completed');
  await expect(turnRow).toContainText('from rest');

  // A wake event from the webhook, taken at once by a heartbeat turn.
  const wake = await page.request.post('/hooks/wake', {
    headers: { authorization: `Bearer ${token}` },
    data: { text: 'e2e wake: deploy finished', mode: 'now' }
  });
  expect(wake.status()).toBe(200);
  const { eventId } = (await wake.json()) as { eventId: string };
  const eventRow = rows.locator(`[data-activity="${eventId}"]`);
  await expect(eventRow).toContainText('e2e wake: deploy finished');
  await expect(eventRow).toContainText('from webhook');
  await expect(eventRow).toHaveAttribute('data-state', 'done');
  await screenshots(page, info, 'activity');

  // Filters: events only, then turns from REST only.
  await page.getByLabel('Kind').selectOption('event');
  await expect(eventRow).toBeVisible();
  await expect(rows.locator('[data-kind="turn"]')).toHaveCount(0);
  await page.getByLabel('Kind').selectOption('');
  await page.getByLabel('Source').selectOption('rest');
  await expect(turnRow).toBeVisible();
  await expect(rows.locator('[data-kind="event"]')).toHaveCount(0);
  await expect(rows.locator('a[data-kind="turn"]:not(:has-text("from rest"))')).toHaveCount(0);

  // While the reader is scrolled down, a new turn waits behind an "N new" pill.
  let filler = '';
  for (let i = 0; i < 6; i++) {
    const res = await page.request.post('/api/v1/chat/send', {
      headers: { authorization: `Bearer ${key}` },
      data: { message: `filler ${i}`, session: 'e2e-activity' }
    });
    expect(res.status()).toBe(200);
    filler = ((await res.json()) as { turnId: string }).turnId;
  }
  await expect(rows.locator('li').first().locator(`[data-activity="${filler}"]`)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 500 });
  await page.evaluate(() => window.scrollTo({ top: 300 }));
  await page.waitForFunction(() => window.scrollY >= 120);
  const before = await rows.locator('li').count();
  const later = await page.request.post('/api/v1/chat/send', {
    headers: { authorization: `Bearer ${key}` },
    data: { message: 'help', session: 'e2e-activity' }
  });
  const laterId = ((await later.json()) as { turnId: string }).turnId;
  const pill = page.getByRole('button', { name: /1 new/ });
  await expect(pill).toBeVisible();
  expect(await rows.locator('li').count()).toBe(before);
  await pill.click();
  await expect(rows.locator('li').first().locator(`[data-activity="${laterId}"]`)).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });

  // The turn's details: input, reply, usage.
  await page.getByLabel('Source').selectOption('');
  await turnRow.click();
  await expect(page).toHaveURL(new RegExp(`/activity/turn/${turnId}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(turnId.slice(0, 8));
  await expect(page.getByText('Agent main:')).toBeVisible();
  await screenshots(page, info, 'activity-turn');

  // The delivery log's event link opens the event, which names its delivery and its turn.
  await page.goto('/webhooks');
  await hydrated(page);
  await page.getByRole('link', { name: `event ${eventId.slice(0, 8)}` }).click();
  await expect(page).toHaveURL(new RegExp(`/activity/event/${eventId}$`));
  await expect(page.getByText('e2e wake: deploy finished')).toBeVisible();
  await expect(page.getByText('Webhook delivery')).toBeVisible();
  await expect(page.locator('dd[data-delivery]')).toContainText('wake');
  await expect(page.getByRole('link', { name: /^turn [0-9a-f]{8}$/ })).toBeVisible();
  await screenshots(page, info, 'activity-event');

  // A time range: from a moment after the first turn, it is left out and a new turn comes in
  // live; the range stays in the link through a reload, beside the other filters.
  const cut = new Date().toISOString();
  const send = async (message: string) => {
    const res = await page.request.post('/api/v1/chat/send', {
      headers: { authorization: `Bearer ${key}` },
      data: { message, session: 'e2e-activity' }
    });
    expect(res.status()).toBe(200);
    return ((await res.json()) as { turnId: string }).turnId;
  };
  await page.goto(`/activity?source=rest&range=custom&from=${encodeURIComponent(cut)}`);
  await hydrated(page);
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  await expect(page.getByLabel(/^Time/)).toHaveValue('custom');
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
  const fresh = await send('after the cut');
  await expect(rows.locator(`[data-activity="${fresh}"]`)).toBeVisible();
  await expect(turnRow).toHaveCount(0);
  await page.reload();
  await hydrated(page);
  await expect(rows.locator(`[data-activity="${fresh}"]`)).toBeVisible();
  await expect(turnRow).toHaveCount(0);
  expect(new URL(page.url()).searchParams.get('source')).toBe('rest');
  await screenshots(page, info, 'activity-range');

  // A preset takes the older turn back in and replaces the range in the link.
  await page.getByLabel(/^Time/).selectOption('1h');
  await expect(turnRow).toBeVisible();
  await expect(page).toHaveURL(/[?&]range=1h(&|$)/);
  await expect(page).not.toHaveURL(/from=/);

  // A range that ended: a live turn after it is not shown.
  await page.goto(`/activity?range=custom&to=${encodeURIComponent(cut)}`);
  await hydrated(page);
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  await expect(turnRow).toBeVisible();
  const outside = await send('outside the range');
  await expect(rows.locator(`[data-activity="${fresh}"]`)).toHaveCount(0);
  await page.waitForTimeout(1_500);
  await expect(rows.locator(`[data-activity="${outside}"]`)).toHaveCount(0);
  await expect(page.getByRole('button', { name: /new/ })).toHaveCount(0);
});
