/**
 * The build-file editor in Chromium, and what it costs the console's download:
 * (a) keystroke → updated diagnostics on a generated 1,000-line build file (the harness page,
 *     tests/harness/buildfile-editor): 50 characters typed on a new line in the middle of the file,
 *     120 ms apart (a brisk typist) after 10 keys of warm-up, each key's time from its keydown until the next lint result
 *     is shown (the harness hooks the editor's `ondiagnostics`). Linted in the Web Worker (what the
 *     editor does) and, for comparison, on the main thread; with the longest main-thread task
 *     while typing. Target p95 ≤ 50 ms.
 * (b) the gzip size of the editor's chunks (CodeMirror and ours, loaded with a dynamic import as
 *     a route does) and of the lint worker, from the harness build; and in the app build
 *     (`npm run build` first), that the console's root route (`/`: root layout, console layout,
 *     the overview page, the entry chunks) imports no chunk holding CodeMirror, and the weight of
 *     any route that does.
 * Run: `node bench/buildfile-editor.bench.ts` (needs Chromium; no server or engine).
 */
import { chromium, type Page } from '@playwright/test';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, preview } from 'vite';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.ts';

const KEYS = 50;
const SPACING_MS = 120;
const TYPED = 'RUN echo "typed in the bench: 0123456789 abcdefgh"';
if (TYPED.length !== KEYS) throw new Error(`typed text is ${TYPED.length} characters`);

const configFile = 'tests/harness/buildfile-editor/vite.config.ts';
const outDir = mkdtempSync(join(tmpdir(), 'berth-bf-bench-'));
await build({ configFile, build: { outDir }, logLevel: 'error' });
const server = await preview({
  configFile,
  build: { outDir },
  preview: { host: '127.0.0.1', port: 0 }
});
const url = server.resolvedUrls!.local[0]!;

const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: chromiumArgs
});

interface Harness {
  results(): number;
  revealLine(line: number): void;
  latencies(): (number | null)[];
  resetTimings(): void;
}
declare const harness: Harness;

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

async function typing(lint: 'worker' | 'main') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => {
    const w = window as unknown as { __longest: number };
    w.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
    }).observe({ type: 'longtask' });
  });
  const page: Page = await context.newPage();
  await page.goto(`${url}?lines=1000&lint=${lint}`);
  await page.locator('body[data-ready]').waitFor({ state: 'attached' });
  await page.waitForFunction(() => harness.results() > 0);
  // A new line after line 500 (the end of a single-line instruction of the generated file).
  await page.evaluate(() => harness.revealLine(500));
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  // Warm-up, as a reader's first edits are: 10 keys (a comment line), not counted.
  await page.keyboard.type('# warm-up\n', { delay: SPACING_MS });
  await page.waitForTimeout(500);
  await page.evaluate(() => {
    harness.resetTimings();
    (window as unknown as { __longest: number }).__longest = 0;
  });
  for (const ch of TYPED) {
    await page.keyboard.type(ch);
    await page.waitForTimeout(SPACING_MS);
  }
  await page.waitForTimeout(500);
  const latencies = await page.evaluate(() => harness.latencies());
  const longest = await page.evaluate(() => (window as unknown as { __longest: number }).__longest);
  await context.close();
  const shown = latencies.filter((l): l is number => l !== null).sort((a, b) => a - b);
  if (shown.length < KEYS) throw new Error(`only ${shown.length} of ${KEYS} keys saw a result`);
  return { p50: quantile(shown, 0.5), p95: quantile(shown, 0.95), max: shown.at(-1)!, longest };
}

const worker = await typing('worker');
const main = await typing('main');
await browser.close();
await server.close();

const ms = (n: number) => `${n.toFixed(1)} ms`;
console.log(
  `buildfile editor: ${KEYS} keys ${SPACING_MS} ms apart on a 1,000-line file, keydown → diagnostics shown:\n` +
    `  lint in the worker:      p50 ${ms(worker.p50)}, p95 ${ms(worker.p95)}, max ${ms(worker.max)}; longest main-thread task ${ms(worker.longest)} (target p95 ≤ 50 ms)\n` +
    `  lint on the main thread: p50 ${ms(main.p50)}, p95 ${ms(main.p95)}, max ${ms(main.max)}; longest main-thread task ${ms(main.longest)}`
);

// (b) Sizes. Chunks holding CodeMirror carry its view's class names.
const CODEMIRROR = 'cm-scroller';
const gz = (file: string) => gzipSync(readFileSync(file)).length;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

const assets = join(outDir, 'assets');
const harnessFiles = readdirSync(assets).filter((f) => f.endsWith('.js'));
const editorChunks = harnessFiles.filter((f) => f.startsWith('BuildFileEditor-'));
const workerChunks = harnessFiles.filter((f) => f.startsWith('lint.worker-'));
const editorGzip = editorChunks.reduce((sum, f) => sum + gz(join(assets, f)), 0);
const workerGzip = workerChunks.reduce((sum, f) => sum + gz(join(assets, f)), 0);
console.log(
  `  editor chunks (harness build, dynamic import): ${editorChunks.length} file(s), ${kib(editorGzip)} gzip; lint worker ${kib(workerGzip)} gzip (fetched when the editor opens)`
);
rmSync(outDir, { recursive: true, force: true });

const client = '.svelte-kit/output/client';
const manifestFile = join(client, '.vite/manifest.json');
if (!existsSync(manifestFile)) {
  console.log('  app build: none (run `npm run build` first to check the console routes)');
} else {
  type Entry = { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean };
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, Entry>;
  const nodesDir = '.svelte-kit/generated/client-optimized/nodes';
  /** The manifest key of the node whose component is `component` (a path under src/routes). */
  const nodeOf = (component: string) =>
    readdirSync(nodesDir)
      .map((f) => `${nodesDir}/${f}`)
      .find((f) => readFileSync(f, 'utf8').includes(`src/routes/${component}"`));
  /** The files `keys` load: static imports, and dynamic ones too when `dynamic`. */
  const closure = (keys: string[], dynamic = false) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      for (const i of manifest[key].imports ?? []) visit(i);
      if (dynamic) for (const i of manifest[key].dynamicImports ?? []) visit(i);
    };
    keys.forEach(visit);
    return [...seen].map((k) => join(client, manifest[k]!.file));
  };
  const entries = Object.keys(manifest).filter(
    (k) => manifest[k]!.isEntry && !k.includes('/nodes/')
  );
  const rootRoute = [
    ...entries,
    ...['+layout.svelte', '(console)/+layout.svelte', '(console)/+page.svelte'].map(
      (c) => nodeOf(c) ?? ''
    )
  ];
  const rootFiles = closure(rootRoute);
  const holding = rootFiles.filter((f) => readFileSync(f, 'utf8').includes(CODEMIRROR));
  const rootGzip = rootFiles.reduce((sum, f) => sum + gz(f), 0);
  console.log(
    `  console root route: ${rootFiles.length} JS files, ${kib(rootGzip)} gzip, CodeMirror in ${holding.length} of them`
  );
  if (holding.length > 0) throw new Error(`the root route loads CodeMirror: ${holding.join(', ')}`);
  const route = nodeOf('(console)/build-files/+page.svelte');
  if (route) {
    const files = closure([route], true).filter((f) => !rootFiles.includes(f));
    const editor = files.filter((f) => readFileSync(f, 'utf8').includes(CODEMIRROR));
    console.log(
      `  /build-files route beyond the root's: ${files.length} JS files, ${kib(files.reduce((s, f) => s + gz(f), 0))} gzip (CodeMirror in ${editor.length})`
    );
  } else {
    console.log('  /build-files route: not in this build (no route uses the editor yet)');
  }
}
