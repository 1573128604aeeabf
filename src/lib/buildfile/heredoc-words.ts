/**
 * Heredoc detection, written from BuildKit's `heredocsFromLine` and `ParseHeredoc`: the whole
 * instruction line is split like a shell would (quotes and escapes kept, variables left as
 * written, `<<` followed by spaces joined to the next word), then each word is matched against
 * `^(\d*)<<(-?)\s*([^<]*)$`. A word whose delimiter is one shell word is a heredoc; quoting any
 * part of the delimiter turns expansion off. A line the shell split fails on (an unclosed
 * quote) has no heredocs, as in BuildKit.
 */

import { goQuote } from './go-quote.ts';
import { isSpace } from './words.ts';

export interface HeredocWord {
  name: string;
  fileDescriptor: number;
  expand: boolean;
  chomp: boolean;
  /** Where the word starts and ends in the line. */
  start: number;
  end: number;
}

interface LexOptions {
  rawQuotes: boolean;
  rawEscapes: boolean;
}

interface Word {
  value: string;
  start: number;
  end: number;
}

class LexError extends Error {}

/** Shell word splitting as BuildKit's shell.Lex.ProcessWords does it with no variables set. */
function shellWords(line: string, options: LexOptions): Word[] {
  const words: Word[] = [];
  let word = '';
  let inWord = false;
  let start = 0;
  let pos = 0;
  const raw = (text: string, from: number) => {
    if (word.length === 0) start = from;
    word += text;
    inWord = true;
  };
  const flush = (at: number) => {
    if (word.length > 0) words.push({ value: word, start, end: at });
    word = '';
    inWord = false;
  };
  // addString: a value that may hold spaces splits words where they are.
  const plain = (text: string, from: number) => {
    for (const ch of text) {
      if (isSpace(ch)) {
        if (inWord && word.length > 0) flush(from);
      } else raw(ch, from);
    }
  };

  while (pos < line.length) {
    const from = pos;
    const ch = line[pos];
    if (ch === "'") {
      const close = line.indexOf("'", pos + 1);
      if (close < 0)
        throw new LexError('unexpected end of statement while looking for matching single-quote');
      const inner = line.slice(pos + 1, close);
      pos = close + 1;
      raw(options.rawQuotes ? `'${inner}'` : inner, from);
    } else if (ch === '"') {
      let text = options.rawQuotes ? '"' : '';
      pos++;
      for (;;) {
        if (pos >= line.length) {
          throw new LexError('unexpected end of statement while looking for matching double-quote');
        }
        const c = line[pos];
        if (c === '"') {
          pos++;
          break;
        }
        if (c === '$') {
          const [value, next] = dollar(line, pos);
          text += value;
          pos = next;
          continue;
        }
        pos++;
        if (c === '\\') {
          const n = line[pos];
          if (n === undefined) continue;
          if (n === '"' || n === '$' || n === '\\') {
            pos++;
            text += options.rawEscapes ? c + n : n;
            continue;
          }
        }
        text += c;
      }
      raw(options.rawQuotes ? `${text}"` : text, from);
    } else if (ch === '$') {
      const [value, next] = dollar(line, pos);
      pos = next;
      plain(value, from);
    } else if (ch === '<') {
      pos++;
      if (line[pos] !== '<') {
        raw('<', from);
        continue;
      }
      pos++;
      let text = '<<';
      while (pos < line.length && /[ \t\n\r\f\v]/.test(line[pos] ?? '')) text += line[pos++];
      raw(text, from);
    } else {
      pos++;
      if (ch === '\\') {
        const n = line[pos];
        if (n === undefined) break;
        pos++;
        raw(options.rawEscapes ? ch + n : n, from);
      } else if (isSpace(ch)) {
        if (inWord && word.length > 0) flush(from);
      } else raw(ch ?? '', from);
    }
  }
  flush(pos);
  return words;
}

/** `$NAME` or `${...}` left as written (no variable is set); an unclosed `${` is an error. */
function dollar(line: string, pos: number): [string, number] {
  if (line[pos + 1] !== '{') {
    let end = pos + 1;
    while (end < line.length && /[A-Za-z0-9_]/.test(line[end] ?? '')) end++;
    return [line.slice(pos, end), end];
  }
  let depth = 0;
  for (let i = pos + 1; i < line.length; i++) {
    if (line[i] === '{') depth++;
    else if (line[i] === '}' && --depth === 0) return [line.slice(pos, i + 1), i + 1];
  }
  throw new LexError("syntax error: missing '}'");
}

const HEREDOC = /^(\d*)<<(-?)\s*([^<]*)$/;

/** One word to a heredoc, null when it is not one; throws on a malformed delimiter. */
export function parseHeredocWord(text: string): Omit<HeredocWord, 'start' | 'end'> | null {
  const match = HEREDOC.exec(text);
  if (!match) return null;
  const rest = match[3] ?? '';
  if (rest === '') return null;
  let words: Word[];
  let rawWords: Word[];
  try {
    words = shellWords(rest, { rawQuotes: false, rawEscapes: false });
    if (words.length !== 1) return null;
    rawWords = shellWords(rest, { rawQuotes: true, rawEscapes: false });
  } catch (err) {
    throw new Error(`failed to process ${goQuote(rest)}: ${(err as Error).message}`, {
      cause: err
    });
  }
  const name = words[0]?.value ?? '';
  const quotes = (s: string) => s.split(/['"]/).length - 1;
  return {
    name,
    fileDescriptor: match[1] ? Number(match[1]) : 0,
    chomp: match[2] === '-',
    expand: quotes(name) === quotes(rawWords[0]?.value ?? '')
  };
}

/** The heredocs an instruction line opens, in order. */
export function heredocsOfLine(line: string): HeredocWord[] {
  let words: Word[];
  try {
    words = shellWords(line, { rawQuotes: true, rawEscapes: true });
  } catch {
    return [];
  }
  const docs: HeredocWord[] = [];
  for (const word of words) {
    const doc = parseHeredocWord(word.value);
    if (doc) docs.push({ ...doc, start: word.start, end: word.end });
  }
  return docs;
}
