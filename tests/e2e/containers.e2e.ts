import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { addUser, adminAddsAndSignsIn, hydrated, signedInPage } from './helpers';

// Every engine object this file makes carries this label; only those are removed afterwards.
const RUN = `e2e-${randomUUID().slice(0, 8)}`;
const NAME = `berth-${RUN}`;

function removeLabelled(): void {
  const ids = execFileSync('docker', ['ps', '-aq', '--filter', `label=berth.test=${RUN}`])
    .toString()
    .split('\n')
    .filter(Boolean);
  if (ids.length) execFileSync('docker', ['rm', '-f', ...ids]);
}

test.afterAll(removeLabelled);

async function openContainers(page: Page): Promise<void> {
  await page.goto('/containers');
  await hydrated(page);
  await expect(page.getByText('Engine local')).toBeVisible();
}

test('an operator creates, starts, follows, watches, stops and removes a container; a viewer only reads', async ({
  page,
  browser
}) => {
  test.setTimeout(45_000);
  const operator = await adminAddsAndSignsIn(page, browser, {
    email: 'otto.containers@example.com',
    name: 'Otto Operator',
    role: 'operator',
    password: 'operator-password-1'
  });
  const viewerUser = {
    email: 'vic.containers@example.com',
    name: 'Vic Viewer',
    role: 'viewer',
    password: 'viewer-password-1'
  };
  await addUser(page, viewerUser);

  await openContainers(operator);
  const form = operator.getByRole('form', { name: 'Create container' });
  await form.getByLabel('Image', { exact: true }).fill('berth-test/busybox:latest');
  await form.getByLabel('Name', { exact: true }).fill(NAME);
  await form.getByLabel('Labels').fill(`berth.test=${RUN}`);
  await form
    .getByLabel('Command')
    .fill(
      'sh\n-c\ntrap "exit 0" TERM; trap "echo got-usr1" USR1; i=0; while true; do i=$((i+1)); echo "tick $i"; sleep 0.2; done'
    );
  await form.getByLabel('Start it once created').uncheck();
  await form.getByRole('button', { name: 'Create container' }).click();
  await expect(operator.getByRole('status').filter({ hasText: `Created ${NAME}` })).toBeVisible();
  const row = operator.locator(`tr[data-container="${NAME}"]`);
  await expect(row).toContainText('created');

  await row.getByRole('link', { name: NAME }).click();
  await expect(operator.getByRole('heading', { level: 1, name: NAME })).toBeVisible();
  const actions = operator.getByRole('group', { name: 'Container actions' });
  await actions.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(operator.getByRole('status').filter({ hasText: `Started ${NAME}` })).toBeVisible();

  await operator.getByRole('tab', { name: 'Logs' }).click();
  const logs = operator.getByRole('region', { name: `Logs of ${NAME}` });
  // Live: a tick seen, then one printed a second later (the view keeps only the newest rows,
  // so an early tick may have scrolled away on a slow machine).
  const ticks = logs.getByText(/^tick \d+$/);
  await expect(ticks.last()).toBeVisible();
  const seen = Number((await ticks.last().textContent())!.slice(5));
  await expect(logs.getByText(new RegExp(`^tick ${seen + 5}$`))).toBeVisible();

  await operator.getByRole('tab', { name: 'Stats' }).click();
  await expect(operator.getByTestId('stats-totals')).toContainText('processes', {
    timeout: 10_000
  });

  // A command typed into the exec console runs in the container and its output comes back.
  await operator.getByRole('tab', { name: 'Exec' }).click();
  const shell = operator.getByRole('region', { name: `Shell in ${NAME}` });
  await expect(shell.getByRole('status')).toHaveText('connected', { timeout: 10_000 });
  await shell.locator('.xterm-helper-textarea').focus();
  await operator.keyboard.type('echo exec-$((40 + 2))\n');
  await expect(shell.locator('.xterm-rows')).toContainText('exec-42');

  // Kill sends the signal picked: the container's trap answers it in the logs.
  await operator.getByRole('tab', { name: 'Logs' }).click();
  await actions.getByLabel('Signal').selectOption('SIGUSR1');
  await actions.getByRole('button', { name: 'Kill', exact: true }).click();
  await expect(
    operator.getByRole('status').filter({ hasText: `Sent SIGUSR1 to ${NAME}` })
  ).toBeVisible();
  await expect(logs.getByText(/^got-usr1$/)).toBeVisible();

  // A viewer sees the same container without a single write control, and a forged write fails.
  const viewer = await signedInPage(browser, viewerUser.email, viewerUser.password);
  await openContainers(viewer);
  await expect(viewer.locator(`tr[data-container="${NAME}"]`)).toContainText('running');
  await expect(viewer.getByRole('form', { name: 'Create container' })).toHaveCount(0);
  await expect(viewer.getByRole('checkbox')).toHaveCount(0);
  await expect(viewer.getByRole('group', { name: 'Selected containers' })).toHaveCount(0);
  await viewer.getByRole('link', { name: NAME }).click();
  await expect(viewer.getByRole('heading', { level: 1, name: NAME })).toBeVisible();
  await expect(viewer.getByRole('group', { name: 'Container actions' })).toHaveCount(0);
  const forged = await viewer.evaluate(async (id) => {
    const response = await fetch('/api/trpc/engine.containers.stop', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ engine: 'local', id })
    });
    return response.status;
  }, NAME);
  expect(forged).toBe(403);
  await viewer.context().close();

  await actions.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(operator.getByRole('status').filter({ hasText: `Stopped ${NAME}` })).toBeVisible();
  await actions.getByRole('button', { name: 'Remove…' }).click();
  await actions.getByRole('button', { name: `Remove ${NAME}` }).click();
  await expect(operator).toHaveURL(/\/containers\?engine=local$/);
  await hydrated(operator);
  await expect(operator.getByRole('table', { name: 'Containers' })).toBeVisible();
  await expect(operator.locator(`tr[data-container="${NAME}"]`)).toHaveCount(0);
  expect(execFileSync('docker', ['ps', '-aq', '--filter', `name=^${NAME}$`]).toString()).toBe('');
  await operator.context().close();
});
