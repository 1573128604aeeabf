/**
 * ANSI SGR codes to styled text segments, for the log viewer to render as text in spans: log
 * text never reaches the page as HTML. anser parses the codes; colours become CSS variables
 * (the 16 named ones, themed in LogViewer) or rgb() values (256-colour and true colour).
 */
import Anser from 'anser';

export interface Segment {
  text: string;
  /** Inline CSS from the codes; empty for plain text. */
  style: string;
  /** Part of a search match. */
  mark?: boolean;
}

const cache = new WeakMap<object, Segment[]>();

/** Segments of `entry.text`, parsed once per entry (rows are re-rendered as they scroll). */
export function segmentsOf(entry: { text: string }): Segment[] {
  let segments = cache.get(entry);
  if (!segments) {
    segments = ansiSegments(entry.text);
    cache.set(entry, segments);
  }
  return segments;
}

export function ansiSegments(text: string): Segment[] {
  if (!text.includes('\x1b')) return [{ text, style: '' }];
  const out: Segment[] = [];
  for (const chunk of Anser.ansiToJson(text, {
    json: true,
    use_classes: true,
    remove_empty: true
  })) {
    if (chunk.content === '') continue;
    out.push({ text: chunk.content, style: styleOf(chunk) });
  }
  return out;
}

function styleOf(chunk: Anser.AnserJsonEntry): string {
  let fg = colour(chunk.fg, chunk.fg_truecolor);
  let bg = colour(chunk.bg, chunk.bg_truecolor);
  const decorations = chunk.decorations;
  if (decorations.includes('reverse')) [fg, bg] = [bg ?? 'var(--log-bg)', fg ?? 'var(--log-text)'];
  const rules: string[] = [];
  if (fg) rules.push(`color: ${fg}`);
  if (bg) rules.push(`background-color: ${bg}`);
  if (decorations.includes('bold')) rules.push('font-weight: 700');
  if (decorations.includes('dim')) rules.push('opacity: 0.7');
  if (decorations.includes('italic')) rules.push('font-style: italic');
  const lines = [
    decorations.includes('underline') ? 'underline' : '',
    decorations.includes('strikethrough') ? 'line-through' : ''
  ].filter(Boolean);
  if (lines.length) rules.push(`text-decoration: ${lines.join(' ')}`);
  if (decorations.includes('hidden')) rules.push('visibility: hidden');
  return rules.join('; ');
}

const NAMED = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

/** anser's class name ("ansi-red", "ansi-bright-red", "ansi-palette-n", "ansi-truecolor"). */
function colour(name: string | null, truecolor: string | null): string | null {
  if (!name) return null;
  if (name === 'ansi-truecolor')
    return truecolor && /^[\d, ]+$/.test(truecolor) ? `rgb(${truecolor})` : null;
  const palette = /^ansi-palette-(\d{1,3})$/.exec(name);
  if (palette) return paletteColour(Number(palette[1]));
  const named = /^ansi-(bright-)?([a-z]+)$/.exec(name);
  if (named && NAMED.includes(named[2]!)) return `var(--ansi-${named[1] ?? ''}${named[2]})`;
  return null;
}

/** xterm's 256 colours: 16 named, a 6×6×6 cube, 24 greys. */
export function paletteColour(n: number): string | null {
  if (!Number.isInteger(n) || n < 0 || n > 255) return null;
  if (n < 16) return `var(--ansi-${n >= 8 ? 'bright-' : ''}${NAMED[n % 8]})`;
  if (n < 232) {
    const level = (c: number) => (c === 0 ? 0 : 55 + c * 40);
    const i = n - 16;
    return `rgb(${level(Math.floor(i / 36))}, ${level(Math.floor(i / 6) % 6)}, ${level(i % 6)})`;
  }
  const grey = 8 + (n - 232) * 10;
  return `rgb(${grey}, ${grey}, ${grey})`;
}

/** Splits segments where `pattern` matches the joined text, marking the matched parts. */
export function highlight(segments: Segment[], pattern: RegExp | null): Segment[] {
  if (!pattern) return segments;
  const text = segments.map((s) => s.text).join('');
  const global = new RegExp(
    pattern.source,
    pattern.flags.includes('g') ? pattern.flags : pattern.flags + 'g'
  );
  const ranges: [number, number][] = [];
  for (const match of text.matchAll(global)) {
    if (match[0].length === 0) break;
    ranges.push([match.index, match.index + match[0].length]);
  }
  if (ranges.length === 0) return segments;
  const out: Segment[] = [];
  let offset = 0;
  let r = 0;
  for (const segment of segments) {
    const end = offset + segment.text.length;
    let at = offset;
    while (at < end) {
      while (r < ranges.length && ranges[r]![1] <= at) r++;
      const range = ranges[r];
      if (!range || range[0] >= end) {
        out.push({ ...segment, text: segment.text.slice(at - offset) });
        break;
      }
      if (range[0] > at) {
        out.push({ ...segment, text: segment.text.slice(at - offset, range[0] - offset) });
        at = range[0];
      }
      const stop = Math.min(range[1], end);
      out.push({ ...segment, text: segment.text.slice(at - offset, stop - offset), mark: true });
      at = stop;
    }
    offset = end;
  }
  return out;
}
