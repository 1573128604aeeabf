/**
 * Variable expansion as BuildKit's shell lexer does it for build-file words (FROM, ENV, ARG
 * defaults, COPY --from, WORKDIR …): `$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`,
 * `${VAR:+alt}`, `${VAR+alt}`, `${VAR:?message}`, `${VAR?message}`, `${VAR#glob}`,
 * `${VAR##glob}`, `${VAR%glob}`, `${VAR%%glob}`, `${VAR/glob/text}` and `${VAR//glob/text}`;
 * quotes are removed (nothing expands inside single quotes), the escape character escapes.
 * Written from BuildKit's frontend/dockerfile/shell/lex.go.
 */

export type Lookup = (name: string) => string | undefined;

export interface Expansion {
  value: string;
  /** Every variable the word refers to, in order (repeats removed). */
  used: string[];
  /** The referred variables that were not set (a `${VAR:-x}` default does not hide them). */
  unset: string[];
  /** A syntax error BuildKit refuses (`${VAR`, `${}`, a bad modifier) or a `${VAR?}` failure. */
  error?: string;
}

class ExpandError extends Error {}

export function expand(word: string, lookup: Lookup, escape = '\\'): Expansion {
  const lexer = new Lexer(word, lookup, escape);
  try {
    const value = lexer.until(null);
    return { value, used: [...lexer.used], unset: [...lexer.unset] };
  } catch (err) {
    return {
      value: word,
      used: [...lexer.used],
      unset: [...lexer.unset],
      error: `failed to process "${word}": ${(err as Error).message}`
    };
  }
}

const SPECIAL = '@*#?-$!0';

class Lexer {
  pos = 0;
  readonly used = new Set<string>();
  readonly unset = new Set<string>();
  private readonly text: string;
  private readonly lookup: Lookup;
  private readonly escape: string;

  constructor(text: string, lookup: Lookup, escape: string) {
    this.text = text;
    this.lookup = lookup;
    this.escape = escape;
  }

  private peek(): string | undefined {
    return this.text[this.pos];
  }

  /** Reads up to `stop` (consumed) or the end; a missing `stop` is an error. */
  until(stop: string | null): string {
    let out = '';
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos]!;
      if (stop !== null && ch === stop) {
        this.pos++;
        return out;
      }
      if (ch === "'") out += this.single();
      else if (ch === '"') out += this.double();
      else if (ch === '$') out += this.dollar();
      else {
        this.pos++;
        if (ch === this.escape) {
          if (this.pos >= this.text.length) break;
          out += this.text[this.pos++];
        } else out += ch;
      }
    }
    if (stop !== null) {
      throw new ExpandError(`unexpected end of statement while looking for matching ${stop}`);
    }
    return out;
  }

  private single(): string {
    const close = this.text.indexOf("'", this.pos + 1);
    if (close < 0) {
      throw new ExpandError('unexpected end of statement while looking for matching single-quote');
    }
    const inner = this.text.slice(this.pos + 1, close);
    this.pos = close + 1;
    return inner;
  }

  private double(): string {
    let out = '';
    this.pos++;
    for (;;) {
      const ch = this.peek();
      if (ch === undefined) {
        throw new ExpandError(
          'unexpected end of statement while looking for matching double-quote'
        );
      }
      if (ch === '"') {
        this.pos++;
        return out;
      }
      if (ch === '$') {
        out += this.dollar();
        continue;
      }
      this.pos++;
      if (ch === this.escape) {
        const next = this.peek();
        if (next === undefined) continue;
        if (next === '"' || next === '$' || next === this.escape) {
          this.pos++;
          out += next;
          continue;
        }
      }
      out += ch;
    }
  }

  private get(name: string): string | undefined {
    this.used.add(name);
    const value = this.lookup(name);
    if (value === undefined) this.unset.add(name);
    return value;
  }

  private name(): string {
    let name = '';
    const first = this.peek();
    if (first !== undefined && /[0-9]/.test(first)) {
      while (/[0-9]/.test(this.peek() ?? '')) name += this.text[this.pos++];
      return name;
    }
    if (first !== undefined && SPECIAL.includes(first)) {
      this.pos++;
      return first;
    }
    while (/[\p{L}\p{N}_]/u.test(this.peek() ?? '')) name += this.text[this.pos++];
    return name;
  }

  private dollar(): string {
    this.pos++;
    if (this.peek() !== '{') {
      const name = this.name();
      return name === '' ? '$' : (this.get(name) ?? '');
    }
    this.pos++;
    const first = this.peek();
    if (first === undefined) throw new ExpandError("syntax error: missing '}'");
    if (first === '{' || first === '}' || first === ':') {
      throw new ExpandError('syntax error: bad substitution');
    }
    const name = this.name();
    const op = this.text[this.pos++];
    if (op === '}') return this.get(name) ?? '';
    if (op === undefined) throw new ExpandError("syntax error: missing '}'");
    if (op === ':' || op === '-' || op === '+' || op === '?') {
      const colon = op === ':';
      const modifier = colon ? this.text[this.pos++] : op;
      const word = this.until('}');
      const value = this.get(name);
      // With `:` an empty value counts as unset.
      const missing = colon ? !value : value === undefined;
      switch (modifier) {
        case '-':
          return missing ? word : (value ?? '');
        case '+':
          return missing ? '' : word;
        case '?':
          if (missing) throw new ExpandError(`${name}: ${word || 'is not allowed to be unset'}`);
          return value ?? '';
        default:
          throw new ExpandError(`unsupported modifier (${modifier ?? ''}) in substitution`);
      }
    }
    if (op === '#' || op === '%') {
      const longest = this.peek() === op;
      if (longest) this.pos++;
      const pattern = this.until('}');
      const value = this.get(name) ?? '';
      return trimPattern(value, pattern, op === '#' ? 'prefix' : 'suffix', longest);
    }
    if (op === '/') {
      const all = this.peek() === '/';
      if (all) this.pos++;
      const pattern = this.until('/');
      const replacement = this.until('}');
      const value = this.get(name) ?? '';
      if (pattern === '') return value;
      const re = new RegExp(globToRegex(pattern), all ? 'g' : '');
      return value.replace(re, () => replacement);
    }
    throw new ExpandError("missing ':' in substitution");
  }
}

function globToRegex(glob: string): string {
  let out = '';
  for (const ch of glob) {
    if (ch === '*') out += '.*';
    else if (ch === '?') out += '.';
    else out += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return out;
}

function trimPattern(value: string, glob: string, side: 'prefix' | 'suffix', longest: boolean) {
  const re = new RegExp(`^${globToRegex(glob)}$`, 's');
  const lengths = Array.from({ length: value.length + 1 }, (_, i) => i);
  if (longest) lengths.reverse();
  for (const n of lengths) {
    const part = side === 'prefix' ? value.slice(0, n) : value.slice(value.length - n);
    if (re.test(part)) return side === 'prefix' ? value.slice(n) : value.slice(0, value.length - n);
  }
  return value;
}
