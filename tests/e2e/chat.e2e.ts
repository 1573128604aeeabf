import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  startFakeOpenAi,
  textAnswer,
  toolCallAnswer,
  type Answer,
  type FakeOpenAi
} from '../integration/helpers/fake-openai';
import { ADMIN, apiKey, hydrated, signIn } from './helpers';
import { screenshots } from './screenshots';

/**
 * The Chat page against the e2e Berth: the builtin agent `main`, and an agent on a console
 * provider that points at a local OpenAI-wire server this file starts, which answers slowly
 * (so a reply is seen streaming, and a turn can be stopped while it runs).
 */
let fake: FakeOpenAi;
// The container skill made here has this run's id in its own: Berth labels every container a
// run starts `berth.skill=<id>`, so only this file's leftovers are looked for and removed.
const RUN = randomUUID().slice(0, 8);
const SHOUT = `e2e-shout-${RUN}`;
const GRUMBLE = `e2e-grumble-${RUN}`;
const skillContainers = () =>
  [SHOUT, GRUMBLE].flatMap((skill) =>
    execFileSync('docker', ['ps', '-aq', '--filter', `label=berth.skill=${skill}`])
      .toString()
      .split('\n')
      .filter(Boolean)
  );
test.beforeAll(async () => {
  fake = await startFakeOpenAi();
});
test.afterAll(async () => {
  await fake?.close();
  const left = skillContainers();
  if (left.length) execFileSync('docker', ['rm', '-f', ...left]);
});

/** Calls the console's tRPC from the signed-in page, as the page itself would. */
async function call(page: Page, path: string, input: unknown): Promise<unknown> {
  return page.evaluate(
    async ([p, body]) => {
      const res = await fetch(`/api/trpc/${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body)
      });
      const json = (await res.json()) as { result?: { data: unknown }; error?: unknown };
      if (!res.ok) throw new Error(JSON.stringify(json.error));
      return json.result?.data;
    },
    [path, input] as const
  );
}

/** The same stream, its chunks `delayMs` apart. */
function slowly(answer: Answer, delayMs: number): Answer {
  if (answer.kind !== 'stream') throw new Error('only a stream answer can be slowed');
  return { ...answer, delayMs };
}

async function slowAgent(page: Page): Promise<void> {
  await call(page, 'providers.add', {
    name: 'e2e-chat-wire',
    baseUrl: fake.url,
    model: 'fake-small'
  });
  await call(page, 'agents.create', { name: 'e2e-slow', provider: 'e2e-chat-wire' });
}

test('a message sent with Enter streams its reply; tool calls are cards; Markdown stays safe; a turn stops with Escape', async ({
  page
}, info) => {
  test.setTimeout(60_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('navigation').getByRole('link', { name: 'Chat' }).click();
  await expect(page).toHaveURL(/\/chat/);
  await hydrated(page);
  await slowAgent(page);

  // The builtin agent: Enter sends, Shift+Enter is a new line.
  await page.goto('/chat?agent=main');
  await hydrated(page);
  const input = page.getByLabel('Message', { exact: true });
  await input.fill('help');
  await input.press('Shift+Enter');
  await expect(input).toHaveValue('help\n');
  await input.fill('help');
  await input.press('Enter');
  await expect(input).toHaveValue('');
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log.locator('[data-role="user"]').last()).toContainText('help');
  await expect(log.locator('[data-role="assistant"]').last()).toContainText(
    'I am the builtin provider'
  );
  await expect(page).toHaveURL(/[?&]session=[0-9a-f-]{36}/);
  const sessionUrl = page.url();

  // A tool call: the builtin runs the echo skill and the card shows its params and result.
  await input.fill('/skill echo {"message":"card-check"}');
  await input.press('Enter');
  const card = log.locator('details[data-tool="echo"]');
  await expect(card).toBeVisible();
  await card.locator('summary').click();
  await expect(card).toContainText('"message": "card-check"');
  await expect(card).toContainText('Result');

  // Markdown: raw HTML shows as text, a javascript: link is no link, bold is bold.
  await input.fill(
    '<script>window.__xss=1</script> <img src=x onerror="window.__xss=2"> [click](javascript:window.__xss=3) **bold**'
  );
  await input.press('Enter');
  const reply = log.locator('[data-role="assistant"]').last();
  await expect(reply).toContainText('<script>window.__xss=1</script>');
  await expect(reply.locator('strong')).toHaveText('bold');
  await expect(log.locator('script, img, a[href^="javascript"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();

  // The deep link opens the same session again.
  await page.goto(sessionUrl);
  await hydrated(page);
  await expect(log.locator('details[data-tool="echo"]')).toBeVisible();
  await screenshots(page, info, 'chat');

  // A slow model: the reply is seen while it streams, then a code block with a Copy button.
  fake.script(
    slowly(textAnswer(['Streaming ', 'slowly ', 'here.\n\n', '```sh\necho hi\n```']), 400)
  );
  await page.goto('/chat?agent=e2e-slow');
  await hydrated(page);
  await input.fill('tell me');
  await input.press('Enter');
  await expect(log.locator('[data-streaming]')).toContainText('Streaming slowly');
  await expect(log.locator('[data-streaming]')).toHaveCount(0, { timeout: 10_000 });
  const answer = log.locator('[data-role="assistant"]').last();
  await expect(answer).toContainText('Streaming slowly here.');
  await expect(answer.getByRole('button', { name: 'Copy' })).toBeVisible();
  await expect(answer.locator('pre code')).toHaveText('echo hi\n');

  // A turn that keeps streaming is stopped with Escape.
  fake.script(slowly(textAnswer(Array.from({ length: 60 }, (_, i) => `word${i} `)), 300));
  await input.fill('go on and on');
  await input.press('Enter');
  await expect(log.locator('[data-streaming]')).toContainText('word1');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(log.locator('[data-turn-state="cancelled"]')).toContainText('Stopped');
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  await expect(log.locator('[data-streaming]')).toHaveCount(0);
});

test("a model's call of a container skill is a card with the params and the container's result", async ({
  page
}, info) => {
  test.setTimeout(60_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await hydrated(page);
  await call(page, 'providers.add', {
    name: 'e2e-tools-wire',
    baseUrl: fake.url,
    model: 'fake-small'
  });
  await call(page, 'skills.save', {
    definition: {
      id: SHOUT,
      kind: 'container',
      description: 'Upper-cases the JSON it reads on stdin',
      image: 'berth-test/busybox:latest',
      command: ['sh', '-c', 'tr a-z A-Z'],
      paramsSchema: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text']
      },
      timeoutMs: 20000
    }
  });
  await call(page, 'skills.save', {
    definition: {
      id: GRUMBLE,
      kind: 'container',
      image: 'berth-test/busybox:latest',
      command: ['sh', '-c', 'echo partial; echo "no such disk: db-9" >&2; exit 3']
    }
  });
  await call(page, 'agents.create', {
    name: 'e2e-tools',
    provider: 'e2e-tools-wire',
    skills: [SHOUT, GRUMBLE]
  });
  fake.script(
    toolCallAnswer([{ name: SHOUT, arguments: { text: 'make me loud' } }]),
    textAnswer(['It says ', 'MAKE ME LOUD.'])
  );

  await page.goto('/chat?agent=e2e-tools');
  await hydrated(page);
  const input = page.getByLabel('Message', { exact: true });
  await input.fill('shout "make me loud"');
  await input.press('Enter');
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log.locator('[data-role="assistant"]').last()).toContainText(
    'It says MAKE ME LOUD.',
    { timeout: 20_000 }
  );
  const card = log.locator(`details[data-tool="${SHOUT}"]`);
  await expect(card).toBeVisible();
  await card.locator('summary').click();
  await expect(card).toContainText('Params');
  await expect(card).toContainText('"text": "make me loud"');
  // The container's stdout (the params JSON upper-cased), parsed as the result.
  await expect(card).toContainText('Result');
  await expect(card).toContainText('"TEXT": "MAKE ME LOUD"');
  // The run's container is gone once its result is in.
  expect(skillContainers()).toEqual([]);

  // A failed run: its card shows the reason, the exit code, the output and what it printed.
  fake.script(toolCallAnswer([{ name: GRUMBLE, arguments: {} }]), textAnswer(['db-9 is missing.']));
  await input.fill('check db-9');
  await input.press('Enter');
  await expect(log.locator('[data-role="assistant"]').last()).toContainText('db-9 is missing.', {
    timeout: 20_000
  });
  const failed = log.locator(`details[data-tool="${GRUMBLE}"]`);
  await failed.locator('summary').click();
  await expect(failed).toContainText('failed');
  await expect(failed).toContainText('exited with code 3');
  await expect(failed.locator('pre')).toHaveText([
    '{}',
    'exited with code 3',
    '3',
    '"partial"',
    'no such disk: db-9'
  ]);
  expect(skillContainers()).toEqual([]);
  await screenshots(page, info, 'chat-container-tool');
});

test('older messages load as the reader scrolls up, and the view stays put', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  const key = await apiKey(page, 'e2e-chat-paging');
  let sessionId = '';
  for (let i = 0; i < 20; i++) {
    const res = await page.request.post('/api/v1/chat/send', {
      headers: { authorization: `Bearer ${key}` },
      data: { message: `page-msg-${i}`, session: 'e2e-chat-paging' }
    });
    expect(res.status()).toBe(200);
    sessionId = ((await res.json()) as { sessionId: string }).sessionId;
  }
  await page.goto(`/chat?agent=main&session=${sessionId}`);
  await hydrated(page);
  const log = page.getByRole('log', { name: 'Messages' });
  const messages = log.locator('[data-message]');
  // The newest 30 of 40 first, the view at the bottom.
  await expect(messages).toHaveCount(30);
  await expect(messages.last()).toContainText('page-msg-19');
  await expect(log.getByText('page-msg-0', { exact: true })).toHaveCount(0);

  const first = messages.first();
  const id = await first.getAttribute('data-message');
  await log.evaluate((el) => (el.scrollTop = 0));
  await expect(messages).toHaveCount(40);
  await expect(log.locator('[data-role="user"]').first()).toContainText('page-msg-0');
  // The message that was on top stays in view where it was: nothing jumped.
  const kept = log.locator(`[data-message="${id}"]`);
  const logBox = (await log.boundingBox())!;
  const keptBox = (await kept.boundingBox())!;
  expect(keptBox.y).toBeGreaterThanOrEqual(logBox.y - 5);
  expect(keptBox.y).toBeLessThan(logBox.y + logBox.height);
});
