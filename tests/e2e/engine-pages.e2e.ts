import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, adminAddsAndSignsIn, hydrated, signIn } from './helpers';

/**
 * The Images, Networks, Volumes and Engine pages against the real engine. Everything made here
 * carries `berth.test=<run>`, and only that is pruned or removed, so other work on the engine
 * is never touched.
 */
const RUN = `e2e-engine-${Date.now()}`;
const LABEL = `berth.test=${RUN}`;
const docker = (...args: string[]) =>
  execFileSync('docker', args, { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }).trim();

test.afterAll(() => {
  const ids = (kind: string[]) => docker(...kind, '--filter', `label=${LABEL}`).split(/\s+/);
  for (const id of ids(['ps', '-aq'])) if (id) docker('rm', '-f', id);
  for (const id of ids(['network', 'ls', '-q'])) if (id) docker('network', 'rm', id);
  for (const id of ids(['volume', 'ls', '-q'])) if (id) docker('volume', 'rm', id);
  for (const id of ids(['images', '-aq'])) if (id) docker('rmi', '-f', id);
});

/** An IPv4 CIDR as its first address and size. */
function range(cidr: string): [number, number] {
  const [ip, bits] = cidr.split('/');
  const start = ip!.split('.').reduce((n, part) => n * 256 + Number(part), 0);
  return [start, 2 ** (32 - Number(bits))];
}

/** A /24 under 10.213/16 that no network on this engine overlaps (others may run here too). */
function freeSubnet(): string {
  const ids = docker('network', 'ls', '-q').split(/\s+/).filter(Boolean);
  const used = docker(
    'network',
    'inspect',
    '--format',
    '{{range .IPAM.Config}}{{.Subnet}} {{end}}',
    ...ids
  )
    .split(/\s+/)
    .filter((cidr) => /^\d+\.\d+\.\d+\.\d+\/\d+$/.test(cidr))
    .map(range);
  // From a random start, so two runs at once on one engine rarely pick the same one.
  const start = Math.floor(Math.random() * 250);
  for (let step = 0; step < 250; step++) {
    const third = ((start + step) % 250) + 1;
    const [first, size] = range(`10.213.${third}.0/24`);
    if (used.every(([s, n]) => s + n <= first || first + size <= s)) return `10.213.${third}`;
  }
  throw new Error('no free /24 under 10.213/16 on this engine');
}

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await hydrated(page);
}

test('an operator prunes a labelled dangling image after its confirmation', async ({ page }) => {
  // No tag: the built image is dangling, so an image prune takes it.
  const id = execFileSync('docker', ['build', '-q', '--label', LABEL, '-'], {
    input: 'FROM berth-test/busybox\n',
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe']
  }).trim();
  const short = id.replace('sha256:', '').slice(0, 12);
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await open(page, '/images');
  await expect(page.getByText('Engine local')).toBeVisible();
  await page.getByLabel('Only dangling images').check();
  const row = page.getByRole('table', { name: 'Images' }).locator(`tr[data-image="${id}"]`);
  await expect(row).toContainText('dangling');

  const prune = page.getByRole('region', { name: 'Prune images' });
  await prune.getByLabel('Only with labels').fill(LABEL);
  await prune.getByRole('button', { name: 'Prune…' }).click();
  await expect(prune.getByRole('list', { name: 'Images to prune' })).toHaveText(short);
  await prune.getByRole('button', { name: 'Prune images' }).click();
  await expect(prune.getByRole('status')).toContainText('Removed 1 object');
  await expect(prune.getByRole('status')).toContainText(short);
  await expect(row).toHaveCount(0);
  expect(docker('images', '-aq', '--filter', `label=${LABEL}`)).toBe('');
});

test('an operator creates a labelled network and volume and removes them', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  const name = `${RUN}-net`;
  const subnet = freeSubnet();
  await open(page, '/networks');
  const create = page.getByRole('region', { name: 'Create a network' });
  await create.getByLabel('Name').fill(name);
  await create.getByLabel('Subnet').fill(`${subnet}.0/24`);
  await create.getByLabel('Gateway').fill(`${subnet}.1`);
  await create.getByLabel('Labels').fill(LABEL);
  await create.getByRole('button', { name: 'Create network' }).click();
  const net = page.getByRole('table', { name: 'Networks' }).locator(`tr[data-network="${name}"]`);
  await expect(net).toContainText(`${subnet}.0/24 via ${subnet}.1`);
  await expect(net).toContainText(LABEL);
  await net.getByRole('button', { name: 'Remove' }).click();
  await net.getByRole('button', { name: 'Remove network' }).click();
  await expect(net).toHaveCount(0);
  expect(docker('network', 'ls', '-q', '--filter', `label=${LABEL}`)).toBe('');

  const volume = `${RUN}-vol`;
  await open(page, '/volumes');
  const form = page.getByRole('region', { name: 'Create a volume' });
  await form.getByLabel('Name').fill(volume);
  await form.getByLabel('Labels').fill(LABEL);
  await form.getByRole('button', { name: 'Create volume' }).click();
  const vol = page.getByRole('table', { name: 'Volumes' }).locator(`tr[data-volume="${volume}"]`);
  await expect(vol).toContainText('unused');
  await vol.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.locator('pre', { hasText: `"Name": "${volume}"` })).toBeVisible();
  await vol.getByRole('button', { name: 'Remove' }).click();
  await vol.getByRole('button', { name: 'Remove volume' }).click();
  await expect(vol).toHaveCount(0);
  expect(docker('volume', 'ls', '-q', '--filter', `label=${LABEL}`)).toBe('');
});

test('the engine events feed shows a container created outside Berth, live', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await open(page, '/engine');
  const events = page.getByRole('region', { name: 'Events' });
  await expect(events.getByText('Live', { exact: true })).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Engines' }).locator('tr[data-engine="local"]')
  ).toContainText('ok');

  const name = `${RUN}-events`;
  docker('create', '--label', LABEL, '--name', name, 'berth-test/busybox', 'true');
  const feed = events.getByRole('list', { name: 'Engine events' });
  await expect(feed.locator('li[data-action="create"]', { hasText: name })).toBeVisible();

  // The filters narrow the feed without dropping what arrived.
  await events.getByLabel('Type').selectOption('network');
  await expect(feed.locator('li[data-action="create"]', { hasText: name })).toHaveCount(0);
  await events.getByLabel('Type').selectOption('container');
  await events.getByLabel('Action').fill('cre');
  await expect(feed.locator('li', { hasText: name })).toHaveCount(1);
});

test('a viewer reads the engine pages without any write control', async ({ page, browser }) => {
  const viewer = await adminAddsAndSignsIn(page, browser, {
    email: 'engine-viewer@example.com',
    name: 'Engine Viewer',
    role: 'viewer',
    password: 'viewer-password-2'
  });
  for (const [path, table] of [
    ['/images', 'Images'],
    ['/networks', 'Networks'],
    ['/volumes', 'Volumes']
  ] as const) {
    await open(viewer, path);
    await expect(
      viewer.getByRole('table', { name: table }).locator('tbody tr').first()
    ).toBeVisible();
    await expect(viewer.getByText(/Your role can read/)).toBeVisible();
    await expect(
      viewer.getByRole('button', { name: /Remove|Prune|Create|Pull|Connect/ })
    ).toHaveCount(0);
  }
  await open(viewer, '/engine');
  await expect(
    viewer.getByRole('region', { name: 'Events' }).getByText('Live', { exact: true })
  ).toBeVisible();
  await expect(viewer.getByRole('button', { name: /Prune/ })).toHaveCount(0);
  await viewer.context().close();
});
