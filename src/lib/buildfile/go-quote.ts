/**
 * Go's `strconv.Quote`, which BuildKit's `Dump()` uses for every value: printable characters
 * stay as they are, the usual C escapes for control characters, `\xNN` for other bytes below
 * U+0080 and `\uNNNN`/`\UNNNNNNNN` for non-printable runes above.
 */

// Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\'
};

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

export function goQuote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const escape = ESCAPES[ch];
    if (escape) {
      out += escape;
      continue;
    }
    if (PRINTABLE.test(ch)) {
      out += ch;
      continue;
    }
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x80) out += `\\x${hex(code, 2)}`;
    else if (code >= 0xd800 && code <= 0xdfff)
      out += '\\ufffd'; // a lone surrogate: invalid UTF-8 in Go
    else if (code < 0x10000) out += `\\u${hex(code, 4)}`;
    else out += `\\U${hex(code, 8)}`;
  }
  return out + '"';
}

/** Go's `fmt.Sprintf("%q", []string{...})`: `["a" "b"]`. */
export function goQuoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}
