/**
 * The word splitters of BuildKit's line parsers, each keeping where its words were: indices
 * into the logical line (`start` inclusive, `end` exclusive) that the parser maps back to the
 * source. Written from BuildKit's `parseWords`, `extractBuilderFlags` and the JSON-form check.
 */

export interface Span {
  value: string;
  start: number;
  end: number;
}

// Go's unicode.IsSpace.
const SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
export function isSpace(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  // ASCII first, by code: this runs for every character trimmed (the parse bench's hot path).
  const code = ch.charCodeAt(0);
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  return code >= 0x85 && SPACE.test(ch);
}

/** BuildKit's separator class `[\t\v\f\r ]`, by code. */
export function isBlank(ch: string | undefined): boolean {
  const code = ch === undefined ? -1 : ch.charCodeAt(0);
  return code === 32 || code === 9 || code === 11 || code === 12 || code === 13;
}

/** Go's strings.TrimSpace, as the [start, end) of what remains. */
export function trimSpan(text: string, start = 0, end = text.length): [number, number] {
  while (start < end && isSpace(text[start])) start++;
  while (end > start && isSpace(text[end - 1])) end--;
  return [start, end];
}

/** BuildKit's `[\t\v\f\r ]+` separator (FROM, EXPOSE, COPY's shell form, legacy ENV). */
export const SEPARATOR = /[\t\v\f\r ]+/g;

/** `regexp.Split(rest, -1)` on the separator; `rest` is already trimmed. */
export function splitWhitespace(rest: string, base: number): Span[] {
  const spans: Span[] = [];
  let start = 0;
  for (const match of rest.matchAll(SEPARATOR)) {
    spans.push({
      value: rest.slice(start, match.index),
      start: base + start,
      end: base + match.index
    });
    start = match.index + match[0].length;
  }
  spans.push({ value: rest.slice(start), start: base + start, end: base + rest.length });
  return spans;
}

/**
 * BuildKit's `parseWords` (ENV, LABEL, ARG): words split on spaces outside quotes; quotes and
 * escapes are kept in the word (they are processed when the value is expanded), except an
 * escape character at the very end of the line, which is dropped.
 */
export function parseWords(rest: string, escape: string, base: number): Span[] {
  const words: Span[] = [];
  let phase: 'spaces' | 'word' | 'quote' = 'spaces';
  let quote = '';
  let blankOK = false;
  let word = '';
  let start = 0;
  const push = (end: number) => {
    if (blankOK || word.length > 0)
      words.push({ value: word, start: base + start, end: base + end });
  };
  for (let pos = 0; pos <= rest.length; pos++) {
    const ch = rest[pos] ?? '';
    if (phase === 'spaces') {
      if (pos === rest.length) break;
      if (isSpace(ch)) continue;
      phase = 'word';
      start = pos;
    }
    if (pos === rest.length) {
      push(pos);
      break;
    }
    if (phase === 'word') {
      if (isSpace(ch)) {
        phase = 'spaces';
        push(pos);
        word = '';
        blankOK = false;
        continue;
      }
      if (ch === "'" || ch === '"') {
        quote = ch;
        blankOK = true;
        phase = 'quote';
      }
      if (ch === escape) {
        if (pos + 1 === rest.length) continue;
        word += ch;
        pos++;
        word += rest[pos];
        continue;
      }
      word += ch;
      continue;
    }
    // In quotes: the escape character escapes anything except inside single quotes.
    if (ch === quote) phase = 'word';
    if (ch === escape && quote !== "'") {
      if (pos + 1 === rest.length) {
        phase = 'word';
        continue;
      }
      word += ch;
      pos++;
      word += rest[pos];
      continue;
    }
    word += ch;
  }
  return words;
}

/**
 * BuildKit's `extractBuilderFlags`: leading `--words` are flags (quotes and backslashes
 * processed), a bare `--` ends them. Returns the flags and where the rest of the line starts.
 */
export function extractFlags(line: string, base: number): { flags: Span[]; restAt: number } {
  const flags: Span[] = [];
  let phase: 'spaces' | 'word' | 'quote' = 'spaces';
  let word = '';
  let quote = '';
  let blankOK = false;
  let start = 0;
  for (let pos = 0; pos <= line.length; pos++) {
    const ch = line[pos] ?? '';
    if (phase === 'spaces') {
      if (pos === line.length) break;
      if (isSpace(ch)) continue;
      if (ch !== '-' || pos + 1 === line.length || line[pos + 1] !== '-') {
        return { flags, restAt: base + pos };
      }
      phase = 'word';
      start = pos;
    }
    if (pos === line.length) {
      if (word !== '--' && (blankOK || word.length > 0)) {
        flags.push({ value: word, start: base + start, end: base + pos });
      }
      break;
    }
    if (phase === 'word') {
      if (isSpace(ch)) {
        phase = 'spaces';
        if (word === '--') return { flags, restAt: base + pos };
        if (blankOK || word.length > 0) {
          flags.push({ value: word, start: base + start, end: base + pos });
        }
        word = '';
        blankOK = false;
        continue;
      }
      if (ch === "'" || ch === '"') {
        quote = ch;
        blankOK = true;
        phase = 'quote';
        continue;
      }
      if (ch === '\\') {
        if (pos + 1 === line.length) continue;
        pos++;
        word += line[pos];
        continue;
      }
      word += ch;
      continue;
    }
    if (ch === quote) {
      phase = 'word';
      continue;
    }
    if (ch === '\\') {
      if (pos + 1 === line.length) {
        phase = 'word';
        continue;
      }
      pos++;
      word += line[pos];
      continue;
    }
    word += ch;
  }
  return { flags, restAt: base + line.length };
}

export type JsonForm =
  { kind: 'json'; items: Span[] } | { kind: 'not-json' } | { kind: 'not-strings' };

/**
 * The exec (JSON) form: an array of strings. Anything that is not valid JSON falls back to the
 * shell form (BuildKit's behaviour); valid JSON with a non-string element is an error.
 */
export function parseJsonForm(rest: string, base: number): JsonForm {
  if (!rest.startsWith('[')) return { kind: 'not-json' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(rest);
  } catch {
    return { kind: 'not-json' };
  }
  if (!Array.isArray(parsed)) return { kind: 'not-json' };
  if (!parsed.every((item) => typeof item === 'string')) return { kind: 'not-strings' };
  // Valid JSON: each top-level string literal, in order, is one element.
  const items: Span[] = [];
  let depth = 0;
  for (let i = 0; i < rest.length; i++) {
    const ch = rest[i];
    if (ch === '[') depth++;
    else if (ch === ']') depth--;
    else if (ch === '"') {
      const from = i;
      for (i++; i < rest.length && rest[i] !== '"'; i++) if (rest[i] === '\\') i++;
      if (depth === 1) {
        items.push({
          value: parsed[items.length] as string,
          start: base + from,
          end: base + i + 1
        });
      }
    }
  }
  return { kind: 'json', items };
}
