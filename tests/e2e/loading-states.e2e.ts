import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN, apiKey, hydrated, signIn } from './helpers';
import { screenshots } from './screenshots';

/**
 * Holds the browser's tRPC requests that call `procedure` until `release()`: the server answers
 * as usual, the page just gets it later, so its loading state can be looked at and measured.
 */
async function holdProcedure(page: Page, procedure: string) {
  let release!: () => void;
  const released = new Promise<void>((done) => (release = done));
  await page.route(
    (url) =>
      url.pathname.startsWith('/api/trpc/') &&
      url.pathname.slice('/api/trpc/'.length).split(',').includes(procedure),
    async (route) => {
      await released;
      await route.continue();
    }
  );
  return release;
}

/** Records, from the first paint on, whether `text` ever shows on the page. */
async function watchFor(page: Page, text: string): Promise<void> {
  await page.addInitScript((t) => {
    const w = window as unknown as { __seen?: boolean };
    w.__seen = false;
    new MutationObserver(() => {
      if (document.body?.innerText.includes(t)) w.__seen = true;
    }).observe(document, { childList: true, subtree: true, characterData: true });
  }, text);
}
const seen = (page: Page) => page.evaluate(() => (window as { __seen?: boolean }).__seen);

async function boxes(cells: Locator): Promise<{ x: number; width: number }[]> {
  const out: { x: number; width: number }[] = [];
  for (const cell of await cells.all()) {
    const box = (await cell.boundingBox())!;
    out.push({ x: box.x, width: box.width });
  }
  return out;
}

function expectSame(before: { x: number; width: number }[], after: typeof before): void {
  expect(after).toHaveLength(before.length);
  after.forEach((box, i) => {
    expect(Math.abs(box.x - before[i]!.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(box.width - before[i]!.width)).toBeLessThanOrEqual(1);
  });
}

test('Sessions loads as skeleton rows under columns that stay put, never saying it is empty', async ({
  page
}, testInfo) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  const key = await apiKey(page, 'e2e-loading');
  const sent = await page.request.post('/api/v1/chat/send', {
    headers: { authorization: `Bearer ${key}` },
    data: { message: 'a long message so the row has real text in it', session: 'e2e-loading' }
  });
  expect(sent.status()).toBe(200);

  await watchFor(page, 'No sessions match.');
  const release = await holdProcedure(page, 'sessions.list');
  await page.goto('/sessions');
  await hydrated(page);
  const table = page.getByRole('table', { name: 'Sessions' });
  await expect(table).toHaveAttribute('aria-busy', 'true');
  await expect(table.locator('tr[data-skeleton]').first()).toBeVisible();
  const headers = table.locator('thead th');
  const before = await boxes(headers);
  await screenshots(page, testInfo, 'sessions-loading');

  release();
  await expect(table.locator('tr[data-key="e2e-loading"]')).toBeVisible();
  await expect(table).toHaveAttribute('aria-busy', 'false');
  expectSame(before, await boxes(headers));
  expect(await seen(page)).toBe(false);

  // A narrow screen keeps its columns too (the table scrolls sideways instead).
  await page.setViewportSize({ width: 390, height: 844 });
  const narrow = await boxes(headers);
  await page.reload();
  await hydrated(page);
  await expect(table.locator('tr[data-key="e2e-loading"]')).toBeVisible();
  expectSame(narrow, await boxes(headers));
});

test('Skills loads with placeholders in columns that stay put, never saying there are none', async ({
  page
}, testInfo) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await watchFor(page, 'No skills yet.');
  const release = await holdProcedure(page, 'skills.list');
  await page.goto('/skills');
  await hydrated(page);
  const list = page.getByRole('list', { name: 'Skills' });
  const detail = page.locator('#skill-detail');
  await expect(list).toHaveAttribute('aria-busy', 'true');
  const columns = [list, detail, page.getByPlaceholder('Search skills')];
  const before = [];
  for (const column of columns) before.push(...(await boxes(column)));
  await screenshots(page, testInfo, 'skills-loading');

  release();
  await expect(list.locator('a[data-skill]').first()).toBeVisible();
  await expect(detail.getByRole('heading', { level: 2 }).first()).toBeVisible();
  const after = [];
  for (const column of columns) after.push(...(await boxes(column)));
  expectSame(before, after);
  expect(await seen(page)).toBe(false);
});

test('every other table page loads as skeleton rows under columns that stay put', async ({
  page
}, testInfo) => {
  test.setTimeout(90_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  for (const [path, procedure, label] of [
    ['/users', 'users.list', 'Users'],
    ['/tokens', 'credentials.rpcTokens.list', 'RPC tokens'],
    ['/webhooks', 'webhooks.mappings.list', 'Mappings'],
    ['/containers', 'engine.containers.list', 'Containers'],
    ['/images', 'engine.images.list', 'Images'],
    ['/networks', 'engine.networks.list', 'Networks'],
    ['/volumes', 'engine.volumes.list', 'Volumes']
  ] as const) {
    const release = await holdProcedure(page, procedure);
    await page.goto(path);
    await hydrated(page);
    const table = page.getByRole('table', { name: label, exact: true });
    await expect(table.locator('tr[data-skeleton]').first()).toBeVisible();
    // Only skeleton rows: no "No … yet" before the data said so.
    await expect(table.locator('tbody tr:not([data-skeleton])')).toHaveCount(0);
    const headers = table.locator('thead th');
    const before = await boxes(headers);
    if (path === '/containers') await screenshots(page, testInfo, 'containers-loading');
    release();
    await expect(table).toHaveAttribute('aria-busy', 'false');
    await expect(table.locator('tr[data-skeleton]')).toHaveCount(0);
    expectSame(before, await boxes(headers));
    await page.unrouteAll({ behavior: 'wait' });
  }
});
