import { expect, test, type Page } from '@playwright/test';
import { createHmac } from 'node:crypto';
import { presetById } from '../../src/lib/webhooks/presets';
import { ADMIN, hydrated, signIn } from './helpers';
import { screenshots } from './screenshots';

const run = Date.now().toString(36);
const push = presetById('github-push')!;

async function openWizard(page: Page) {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/webhooks');
  await hydrated(page);
  await page.getByRole('button', { name: 'Set up a webhook' }).click();
  return page.getByRole('region', { name: 'Set up a webhook' });
}

/** The text of a labelled copy block (curl command, URL, token). */
const block = (wizard: ReturnType<Page['getByRole']>, label: string) =>
  wizard.getByLabel(label, { exact: true }).innerText();

test('the wizard builds a GitHub push mapping from the preset sample; a real delivery reaches the log, the turn and its session', async ({
  page
}, testInfo) => {
  test.setTimeout(60_000);
  const wizard = await openWizard(page);
  await expect(wizard.getByLabel('Preset')).toHaveValue('github-push');
  await screenshots(page, testInfo, 'wizard-kind');
  await wizard.getByRole('button', { name: 'Next', exact: true }).click();

  // Each step's heading takes the focus, where a keyboard or screen reader user goes on.
  await expect(wizard.getByRole('heading', { name: 'A sample delivery' })).toBeFocused();
  await expect(wizard.getByLabel('Sample body (JSON)')).toHaveValue(/"full_name": "acme\/web"/);
  await wizard.getByRole('button', { name: 'Next', exact: true }).click();

  // Fields of the sample become a condition and a placeholder.
  await wizard.getByRole('button', { name: 'Match on body.ref', exact: true }).click();
  await wizard.getByRole('button', { name: 'Insert body.sender.login', exact: true }).click();
  const preview = wizard.getByRole('status', { name: 'Wizard preview' });
  await expect(preview).toContainText('✓ headers.x-github-event is "push"');
  await expect(preview).toContainText('✓ body.ref is "refs/heads/main"');
  await expect(preview).toContainText('Matched: a turn would be queued with');
  await expect(preview).toContainText('Push to acme/web (refs/heads/main) by ada: Fix the login');
  await screenshots(page, testInfo, 'wizard-conditions');
  await wizard.getByRole('button', { name: 'Next', exact: true }).click();

  const name = `wiz-push-${run}`;
  await wizard.getByLabel('Name', { exact: true }).fill(name);
  await wizard.getByRole('button', { name: 'Create mapping' }).click();
  await expect(wizard.getByRole('heading', { name: `Mapping ${name} answers now` })).toBeVisible();
  await expect(page.locator(`tr[data-mapping="${name}"]`)).toBeVisible();

  // GitHub signs with its webhook Secret: the wizard makes a signing token and shows both ways.
  await wizard.getByRole('button', { name: 'Create a GitHub signing secret' }).click();
  await expect(
    wizard.getByRole('status').filter({ hasText: 'A GitHub signing token was created' })
  ).toBeVisible();
  const signed = await block(wizard, 'Send the sample signed, as GitHub does');
  const secret = /^secret='(bwh_[a-z0-9]+)'$/m.exec(signed)?.[1];
  expect(secret, signed).toBeTruthy();
  expect(signed).toContain('openssl dgst -sha256 -hmac "$secret"');
  expect(signed).toContain('-H "X-Hub-Signature-256: sha256=$sig"');
  expect(signed).toContain("-H 'x-github-event: push'");
  const curl = await block(wizard, 'Or send it with the token in a header');
  expect(curl).toContain(`Authorization: Bearer ${secret}`);
  expect(curl).toContain(`/hooks/${name}`);
  const steps = wizard.getByRole('list').filter({ hasText: 'Payload URL' });
  await expect(steps).toContainText('Settings → Webhooks → Add webhook');
  await expect(steps).toContainText('Payload URL: the endpoint above');
  await expect(steps).toContainText('Content type: application/json');
  await expect(steps).toContainText('Secret: the token created above');
  await expect(steps).toContainText('Just the push event');
  await steps.scrollIntoViewIfNeeded();
  await screenshots(page, testInfo, 'wizard-github-signing');

  await wizard.getByRole('button', { name: 'Send test delivery' }).click();
  await expect(wizard.getByRole('status', { name: 'Test delivery result' })).toContainText(
    ': 200, matched'
  );
  // The page's delivery log shows the test delivery at once.
  await expect(
    page.getByRole('table', { name: 'Deliveries' }).locator('tr[data-delivery]', { hasText: name })
  ).toHaveCount(1);
  await screenshots(page, testInfo, 'wizard-finish');

  // A real delivery from outside the browser, as GitHub sends it: no token, the body signed.
  const payload = JSON.stringify({ ...push.sample.body, after: `real-${run}` });
  const delivery = await fetch(new URL(`/hooks/${name}`, page.url()), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret!).update(payload).digest('hex')}`
    },
    body: payload
  });
  expect(delivery.status).toBe(200);
  const { turnId } = (await delivery.json()) as { turnId: string };

  await wizard.getByRole('button', { name: 'Done' }).click();
  // The token list marks the signing token (its secret is never listed).
  const tokenRow = page
    .getByRole('table', { name: 'Webhook tokens' })
    .getByRole('row')
    .filter({ hasText: `${name}-sender-` });
  await expect(tokenRow).toContainText('GitHub signing');
  await expect(tokenRow).not.toContainText(secret!);
  await tokenRow.scrollIntoViewIfNeeded();
  await screenshots(page, testInfo, 'webhook-tokens-signing');
  await page.getByRole('button', { name: 'Refresh' }).click();
  const log = page.getByRole('table', { name: 'Deliveries' });
  const turn = log.getByRole('link', { name: `turn ${turnId.slice(0, 8)}`, exact: true });
  await expect(turn).toBeVisible();
  await screenshots(page, testInfo, 'webhooks-page');
  // The delivery log leads to the turn in Activity, and the turn to its session.
  await turn.click();
  await expect(page).toHaveURL(new RegExp(`/activity/turn/${turnId}$`));
  await expect(page.getByRole('heading', { name: `Turn ${turnId.slice(0, 8)}` })).toBeVisible();
  await expect(page.getByText('completed', { exact: true })).toBeVisible({ timeout: 15_000 });
  await screenshots(page, testInfo, 'webhook-activity-turn');
  await page.getByRole('link', { name: 'transcript' }).click();
  await expect(page).toHaveURL(/\/sessions\/[^/]+$/);
  const messages = page.getByRole('list', { name: 'Messages' });
  await expect(messages).toContainText('Push to acme/web (refs/heads/main) by ada');
  await expect(messages).toContainText('Received external content', { timeout: 15_000 });
  await screenshots(page, testInfo, 'webhook-session');
});

test('the wizard listens on a capture endpoint, builds the mapping from the captured delivery, and the capture closes', async ({
  page
}, testInfo) => {
  test.setTimeout(60_000);
  // A phone: every step fits 390 px without the page scrolling sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  const fits = async () =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390
    );
  const wizard = await openWizard(page);
  await wizard.getByLabel('Preset').selectOption('custom');
  await wizard.getByRole('button', { name: 'Next', exact: true }).click();
  await wizard.getByRole('button', { name: 'Listen for the next real delivery' }).click();
  await expect(wizard.getByLabel('Time left')).toHaveText(/^1[45]:\d\d$/);
  const url = await block(wizard, 'Capture URL');
  const token = await block(wizard, 'Capture token');
  await fits();
  // Followed on its channel (webhook.capture:<id>): the delivery shows as it arrives, no polling.
  await expect(wizard.getByText('Live', { exact: true })).toBeVisible();
  await screenshots(page, testInfo, 'wizard-capture-390');

  // What the page asks for the capture from here on: pushed, it asks nothing.
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('webhooks.capture.get')) asked.push(r.url());
  });
  const sent = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-ci-event': 'build'
    },
    body: JSON.stringify({ project: 'acme/api', status: 'failed', build: { number: 77 } })
  });
  expect(sent.status).toBe(200);
  await expect(wizard.getByRole('status').filter({ hasText: 'Captured' })).toBeVisible({
    timeout: 10_000
  });
  expect(asked).toEqual([]);
  await expect(wizard.getByLabel('Sample body (JSON)')).toHaveValue(/"project": "acme\/api"/);
  const headers = await wizard.getByLabel('Sample headers (JSON)').inputValue();
  expect(headers).toContain('"x-ci-event": "build"');
  expect(headers).not.toContain(token);
  // One delivery only: the capture is closed.
  const again = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}'
  });
  expect(again.status).toBe(404);

  await wizard.getByRole('button', { name: 'Next', exact: true }).click();
  await wizard.getByRole('button', { name: 'Match on headers.x-ci-event', exact: true }).click();
  await wizard.getByRole('button', { name: 'Match on body.status', exact: true }).click();
  await wizard.getByLabel('Message', { exact: true }).fill('Build {body.build.number} of');
  await wizard.getByRole('button', { name: 'Insert body.project', exact: true }).click();
  const preview = wizard.getByRole('status', { name: 'Wizard preview' });
  await expect(preview).toContainText('Matched: a turn would be queued with');
  await expect(preview).toContainText('Build 77 of acme/api');
  await fits();
  await screenshots(page, testInfo, 'wizard-conditions-390');
  await wizard.getByRole('button', { name: 'Next', exact: true }).click();
  await wizard.getByLabel('Name', { exact: true }).fill(`wiz-ci-${run}`);
  await wizard.getByRole('button', { name: 'Create mapping' }).click();
  await wizard.getByRole('button', { name: 'Send test delivery' }).click();
  const result = wizard.getByRole('status', { name: 'Test delivery result' });
  await expect(result).toContainText(': 200, matched');
  await fits();
  await screenshots(page, testInfo, 'wizard-finish-390');
  await result.getByRole('link', { name: 'Open its session' }).click();
  await expect(page.getByRole('list', { name: 'Messages' })).toContainText('Build 77 of acme/api');
});
