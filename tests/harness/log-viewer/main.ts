/**
 * Mounts LogViewer with two sources and exposes `window.harness` for the e2e test to stream
 * generated lines in batches, as the realtime channel would, and to read long tasks.
 */
import { mount } from 'svelte';
import LogViewer from '$lib/components/logs/LogViewer.svelte';
import type { IncomingLine } from '$lib/logs/log-buffer';
import { sourceColour, type LogFeed } from '$lib/state/log-viewer.svelte';
import '../../../src/app.css';

const params = new URLSearchParams(location.search);
document.documentElement.dataset.theme = params.get('theme') ?? 'light';

// Typed by hand: the linter's type service does not read .svelte exports.
const viewer = mount(LogViewer, {
  target: document.getElementById('viewer')!,
  props: {
    sources: [
      { id: 'web', label: 'web', colour: sourceColour(0) },
      { id: 'db', label: 'db', colour: sourceColour(1) }
    ],
    downloadHref: '/api/engine/containers/web/logs.txt',
    label: 'Logs of web and db'
  }
}) as LogFeed;

let longest = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) longest = Math.max(longest, entry.duration);
}).observe({ type: 'longtask', buffered: true });

const T0 = Date.parse('2026-01-01T00:00:00Z');
let produced = 0;

/** Line n: now and then coloured, on stderr, or carrying the search word. */
function line(n: number): IncomingLine {
  const ts = new Date(T0 + n).toISOString().replace('Z', `${String(n % 1000).padStart(3, '0')}Z`);
  if (n % 20_000 === 11_234) return { stream: 'stdout', ts, line: `found the needle at ${n}` };
  if (n % 10 === 3)
    return { stream: 'stdout', ts, line: `\x1b[31mERROR\x1b[0m request ${n} failed` };
  if (n % 10 === 7) return { stream: 'stderr', ts, line: `warning: slow query ${n}` };
  return { stream: 'stdout', ts, line: `GET /items/${n} 200 ${n % 97}ms` };
}

const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));

const harness = {
  /**
   * Streams `count` lines in batches, one batch per macrotask. Each batch's lines alternate
   * between the sources and web's half is pushed first, so db's older lines merge in late.
   */
  async stream(count: number, batch: number): Promise<{ ms: number; longest: number }> {
    longest = 0;
    const started = performance.now();
    for (let sent = 0; sent < count; sent += batch) {
      const size = Math.min(batch, count - sent);
      const lines = Array.from({ length: size }, (_, i) => line(produced + i));
      produced += size;
      viewer.push(
        'web',
        lines.filter((_, i) => i % 2 === 0)
      );
      viewer.push(
        'db',
        lines.filter((_, i) => i % 2 === 1)
      );
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await frame();
    await frame();
    return { ms: performance.now() - started, longest };
  },
  push(source: string, text: string) {
    viewer.push(source, [
      { stream: 'stdout', ts: new Date(T0 + produced++).toISOString(), line: text }
    ]);
  },
  gap: (source: string, missed: number) => viewer.gap(source, missed),
  ended: (source: string, reason: string) => viewer.ended(source, reason),
  longest: () => longest
};

Object.assign(window, { harness });
document.body.dataset.ready = 'true';
