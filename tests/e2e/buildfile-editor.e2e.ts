import { expect, test, type Page } from '@playwright/test';
import { serveHarness } from './harness';

/**
 * The build-file editor on its own: a harness page (tests/harness/buildfile-editor) built with
 * Vite and served here, so the component is checked in Chromium before the studio's page uses
 * it. The harness starts with a four-stage file (deps, build, test, and an unnamed final stage).
 */
const harnessUrl = serveHarness('buildfile-editor');

interface Harness {
  value(): string;
  setValue(next: string): void;
  setReadonly(next: boolean): void;
  saved(): number;
  setTarget(next: string | null): void;
  setTheme(theme: string): void;
  diagnostics(): { rule: string; line: number }[];
  results(): number;
}
declare const harness: Harness;

async function open(page: Page, query = '') {
  await page.goto(harnessUrl() + query);
  await page.locator('body[data-ready]').waitFor({ state: 'attached' });
  await expect.poll(() => page.evaluate(() => harness.results())).toBeGreaterThan(0);
}

const content = (page: Page) => page.locator('.cm-content');
const line = (page: Page, text: string) => page.locator('.cm-line', { hasText: text });
const rules = (page: Page) => page.evaluate(() => harness.diagnostics().map((d) => d.rule));

/** Types a new last line (closing any completion first, so Enter makes a line). */
async function typeLine(page: Page, text: string) {
  await content(page).click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Enter');
  await page.keyboard.type(text, { delay: 15 });
}

test('a typed error is marked as you type; its quick fix applies and the diagnostic goes', async ({
  page
}) => {
  await open(page);
  // Linted off the main thread: the worker loaded and listens.
  expect(page.workers()).toHaveLength(1);
  expect(await page.workers()[0]!.evaluate(() => typeof self.onmessage)).toBe('function');
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(0);
  await typeLine(page, 'RUM echo hi');
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(1);
  await expect(page.getByText('1 error')).toBeVisible();
  expect(await rules(page)).toContain('UnknownInstruction');

  await page.locator('.cm-lintRange-error').hover();
  const tooltip = page.locator('.cm-tooltip-lint');
  await expect(tooltip).toContainText('unknown instruction: RUM (did you mean RUN?)');
  await expect(tooltip).toContainText('Build files know ADD, ARG');
  await expect(tooltip.getByRole('link', { name: 'UnknownInstruction' })).toHaveAttribute(
    'href',
    'https://docs.docker.com/reference/dockerfile/'
  );
  await tooltip.getByRole('button', { name: 'Change to RUN' }).click();
  await expect(line(page, 'RUN echo hi')).toHaveCount(1);
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(0);
  await expect.poll(() => rules(page)).not.toContain('UnknownInstruction');
  await expect(page.getByText('No problems')).toBeVisible();

  // Ctrl+. applies the fix under the cursor too.
  await typeLine(page, 'COPY --frm=build /a /b');
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(1);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ControlOrMeta+.');
  await expect(line(page, 'COPY --from=build /a /b')).toHaveCount(1);
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(0);
});

test('rules switched off in the settings go away and stay off after a reload', async ({ page }) => {
  await open(page);
  await page.evaluate(() => localStorage.removeItem('berth.harness.skippedRules'));
  await typeLine(page, 'MAINTAINER me@example.com');
  await expect.poll(() => rules(page)).toContain('MaintainerDeprecated');
  await page.getByRole('button', { name: 'Rules' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rules' });
  await dialog.getByRole('checkbox', { name: 'MaintainerDeprecated' }).uncheck();
  await expect.poll(() => rules(page)).not.toContain('MaintainerDeprecated');
  await expect(page.getByRole('button', { name: 'Rules (1 off)' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('berth.harness.skippedRules'))).toBe(
    '["MaintainerDeprecated"]'
  );
  await open(page);
  await typeLine(page, 'MAINTAINER me@example.com');
  await expect.poll(() => page.evaluate(() => harness.value())).toContain('MAINTAINER');
  await page.waitForTimeout(200);
  expect(await rules(page)).not.toContain('MaintainerDeprecated');
  await page.evaluate(() => localStorage.removeItem('berth.harness.skippedRules'));
});

test('completion offers stage names after COPY --from= and ARGs after ${', async ({ page }) => {
  await open(page);
  await typeLine(page, 'COPY --from=');
  const list = page.locator('.cm-tooltip-autocomplete');
  await expect(list).toBeVisible();
  await expect(list.locator('li')).toHaveText([/^deps/, /^build/, /^test/]);
  await page.keyboard.type('te');
  // The list narrows to the stage; choosing it with the pointer, not Enter: on a loaded machine
  // a lint result can land between the narrowing and the key, and Enter then types a newline.
  await expect(list.locator('li')).toHaveText([/^test/]);
  await list.locator('li', { hasText: /^test/ }).click();
  await expect(line(page, 'COPY --from=test')).toHaveCount(1);

  await page.keyboard.press('Escape');
  await typeLine(page, 'ARG GREETING=hello');
  await typeLine(page, 'RUN echo ${');
  await expect(list).toBeVisible();
  await expect(list).toContainText('GREETING');
  await page.keyboard.type('GR');
  await list.locator('li', { hasText: 'GREETING' }).first().click();
  await expect(line(page, 'RUN echo ${GREETING}')).toHaveCount(1);

  // Instructions at a line start, and --mount's types.
  await typeLine(page, 'RUN --mount=type=');
  await expect(list.locator('li')).toHaveText([/^bind/, /^cache/, /^tmpfs/, /^secret/, /^ssh/]);
});

test('hovering RUN shows its documentation with a link to the reference', async ({ page }) => {
  await open(page);
  await line(page, 'RUN npm test').locator('.cm-bf-keyword').hover();
  const doc = page.locator('.cm-tooltip .cm-bf-doc');
  await expect(doc).toContainText('RUN');
  await expect(doc).toContainText('Runs a command in a new layer');
  await expect(doc.getByRole('link', { name: 'Dockerfile reference' })).toHaveAttribute(
    'href',
    'https://docs.docker.com/reference/dockerfile/#run'
  );
  await line(page, '--mount=type=cache').locator('.cm-bf-flag').hover();
  await expect(doc).toContainText('RUN --mount');
});

test('Shift+Alt+F formats keywords and keeps an aligned continuation as written', async ({
  page
}) => {
  await open(page);
  const source = [
    'from alpine:3.20 as base',
    '  run   apk add \\',
    '          curl \\',
    '          git',
    'cmd ["sh"]',
    ''
  ].join('\n');
  await page.evaluate((s) => harness.setValue(s), source);
  await content(page).click();
  await page.keyboard.press('Shift+Alt+F');
  await expect
    .poll(() => page.evaluate(() => harness.value()))
    .toBe(
      [
        'FROM alpine:3.20 AS base',
        'RUN apk add \\',
        '          curl \\',
        '          git',
        'CMD ["sh"]',
        ''
      ].join('\n')
    );
});

test('the stage graph highlights the target’s path, follows the target, and jumps to a stage', async ({
  page
}) => {
  await open(page);
  const inTarget = () =>
    page
      .locator('g[data-stage][data-in-target="true"]')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-stage')));
  await expect.poll(inTarget).toEqual(['deps', 'build', 'stage 3']);
  await expect(page.locator('path[data-in-target="true"]')).toHaveCount(2);
  await page.evaluate(() => harness.setTarget('test'));
  await expect.poll(inTarget).toEqual(['deps', 'test']);
  await expect(page.locator('path[data-edge="0>2"]')).toHaveAttribute('data-in-target', 'true');
  await expect(page.locator('path[data-edge="0>1"]')).toHaveAttribute('data-in-target', 'false');

  await page.getByRole('button', { name: 'Stage test, line 12' }).click();
  await expect(page.locator('.cm-lineNumbers .cm-activeLineGutter')).toHaveText('12');

  // At 390 px the outline goes below the editor.
  await page.setViewportSize({ width: 390, height: 900 });
  const editorBox = (await page.locator('.cm-editor').boundingBox())!;
  const sideBox = (await page.getByRole('complementary', { name: 'Stages' }).boundingBox())!;
  expect(sideBox.y).toBeGreaterThanOrEqual(editorBox.y + editorBox.height - 1);
});

test('the dark theme follows the console’s, and the shortcuts help opens with F1', async ({
  page
}) => {
  await open(page, '?theme=dark');
  const background = () =>
    page.locator('.cm-editor').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(await background()).toBe('rgb(22, 25, 32)');
  await page.evaluate(() => harness.setTheme('light'));
  expect(await background()).toBe('rgb(255, 255, 255)');

  await content(page).click();
  await page.keyboard.press('F1');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help).toContainText('Shift+Alt+F');
  await expect(help).toContainText('Find and replace');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // Ctrl+F opens search and replace.
  await content(page).click();
  await page.keyboard.press('ControlOrMeta+f');
  await expect(page.getByRole('textbox', { name: 'Replace' })).toBeVisible();
});

test('highlighting follows the parser: a heredoc body is body, not instructions or comments; read-only and Ctrl+S', async ({
  page
}) => {
  await open(page);
  const source =
    'FROM alpine:3.20\nRUN <<EOF\nRUN not-an-instruction\n# not a comment\nEOF\n# a comment\n';
  await page.evaluate((s) => harness.setValue(s), source);
  const body = line(page, 'RUN not-an-instruction');
  await expect(body.locator('.cm-bf-body')).toHaveCount(1);
  await expect(body.locator('.cm-bf-keyword')).toHaveCount(0);
  await expect(line(page, '# not a comment').locator('.cm-bf-comment')).toHaveCount(0);
  await expect(line(page, '# a comment').locator('.cm-bf-comment')).toHaveCount(1);
  await expect(line(page, 'RUN <<EOF').locator('.cm-bf-heredoc')).toHaveText('<<EOF');

  await content(page).click();
  await page.keyboard.press('ControlOrMeta+s');
  expect(await page.evaluate(() => harness.saved())).toBe(1);

  await page.evaluate(() => harness.setReadonly(true));
  await expect(page.getByRole('button', { name: 'Format' })).toBeDisabled();
  await content(page).click();
  await page.keyboard.type('more');
  expect(await page.evaluate(() => harness.value())).toBe(source);
});
