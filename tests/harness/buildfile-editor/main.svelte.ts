/**
 * Mounts BuildFileEditor and exposes `window.harness` for the e2e test
 * and the bench: the text, the target, the last diagnostics, and keystroke → diagnostics timings.
 * Query: `theme=dark|light`, `lines=1000` (a generated file of that many lines, else a small
 * multi-stage file), `lint=main` (lint on the main thread instead of the worker).
 */
import { mount } from 'svelte';
import type { Diagnostic } from '$lib/buildfile/lint';
import { generateBuildFile } from '../../../bench/buildfile-source';
import '../../../src/app.css';

const params = new URLSearchParams(location.search);
document.documentElement.dataset.theme = params.get('theme') ?? 'light';

const SAMPLE = `# syntax=docker/dockerfile:1
ARG NODE=24
FROM node:\${NODE}-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci

FROM deps AS build
COPY . .
RUN npm run build

FROM deps AS test
RUN npm test

FROM node:\${NODE}-slim
COPY --from=build /app/dist /srv
USER node
HEALTHCHECK CMD ["node", "/srv/health.js"]
CMD ["node", "/srv/server.js"]
`;

const lines = Number(params.get('lines') ?? 0);
let last: readonly Diagnostic[] = [];
/** performance.now() of every keydown, and of every lint result shown. */
const keys: number[] = [];
const results: number[] = [];
document.addEventListener('keydown', () => keys.push(performance.now()), { capture: true });

// Props as runes state, so the test can change them as a page would.
const props = $state({
  value: lines > 0 ? generateBuildFile(lines) : SAMPLE,
  target: null as string | null,
  readonly: false,
  saved: 0
});
// Loaded as a route would load it: its own chunks (the bench weighs them).
const { default: BuildFileEditor } =
  await import('$lib/components/buildfile-editor/BuildFileEditor.svelte');
const editor = mount(BuildFileEditor, {
  target: document.getElementById('editor')!,
  props: {
    get value() {
      return props.value;
    },
    onchange: (next: string) => (props.value = next),
    path: 'Dockerfile',
    get target() {
      return props.target;
    },
    get readonly() {
      return props.readonly;
    },
    lintIn: params.get('lint') === 'main' ? 'main' : 'worker',
    baseImages: ['alpine:3.20', 'node:24-slim', 'debian:12'],
    onsave: () => props.saved++,
    ondiagnostics: (diagnostics: readonly Diagnostic[]) => {
      last = diagnostics;
      results.push(performance.now());
    },
    settingsKey: 'berth.harness.skippedRules'
  }
}) as { revealLine(line: number): void }; // typed by hand: the linter does not read .svelte exports

Object.assign(window, {
  harness: {
    value: () => props.value,
    setValue: (next: string) => (props.value = next),
    setTarget: (next: string | null) => (props.target = next),
    setReadonly: (next: boolean) => (props.readonly = next),
    saved: () => props.saved,
    revealLine: (line: number) => editor.revealLine(line),
    diagnostics: () => last,
    results: () => results.length,
    /**
     * For each keydown, the time until the first lint result shown after it (ms): typing
     * collapses into one lint when keys come faster than the debounce, so a key's wait counts
     * until the result that includes it.
     */
    latencies: () =>
      keys.map((at) => {
        const shown = results.find((t) => t >= at);
        return shown === undefined ? null : shown - at;
      }),
    resetTimings: () => {
      keys.length = 0;
      results.length = 0;
    },
    setTheme: (theme: string) => (document.documentElement.dataset.theme = theme)
  }
});
document.body.dataset.ready = 'true';
