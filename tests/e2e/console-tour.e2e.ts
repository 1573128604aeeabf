import { expect, test } from '@playwright/test';
import { ADMIN, hydrated, signIn } from './helpers';
import { screenshots } from './screenshots';

test('at 1280×800 the sidebar shows Settings, Users and Account without scrolling', async ({
  page
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  const nav = page.getByRole('navigation', { name: 'Console' });
  for (const name of ['Settings', 'Users', 'Audit', 'Account']) {
    const box = await nav.getByRole('link', { name, exact: true }).boundingBox();
    expect(box, name).not.toBeNull();
    expect(box!.y + box!.height, `${name} is below the fold`).toBeLessThanOrEqual(800);
  }
  await screenshots(page, testInfo, 'overview-1280');
});

test('the agent list comes with the page: it shows with scripts off, before any live connection', async ({
  page,
  browser
}, testInfo) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await hydrated(page);
  const state = await page.context().storageState();
  // The root layout remembered the reader's locale and zone for server-rendered times.
  expect(state.cookies.map((c) => c.name)).toContain('berth_clock');

  const noScripts = await browser.newContext({ storageState: state, javaScriptEnabled: false });
  const bare = await noScripts.newPage();
  await bare.goto('/agents');
  const table = bare.getByRole('table', { name: 'Agents' });
  await expect(table.locator('tr[data-name="main"]')).toBeVisible();
  await expect(table).not.toContainText('Loading agents');
  await noScripts.close();

  await page.goto('/agents');
  await hydrated(page);
  await expect(
    page.getByRole('table', { name: 'Agents' }).locator('tr[data-name="main"]')
  ).toBeVisible();
  await screenshots(page, testInfo, 'agents-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshots(page, testInfo, 'agents-390');
  await page.goto('/audit');
  await hydrated(page);
  await screenshots(page, testInfo, 'audit-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshots(page, testInfo, 'audit-1280');
  await page.goto('/tokens');
  await hydrated(page);
  await screenshots(page, testInfo, 'tokens-1280');
});
