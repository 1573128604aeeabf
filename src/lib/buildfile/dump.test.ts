import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dump } from './dump';
import { goQuote, goQuoteList } from './go-quote';
import { parse } from './parser';

// Cases written from BuildKit's parser testfiles (Dockerfile + the Dump() it expects).
const FIXTURES = join(import.meta.dirname, '../../../tests/fixtures/buildfile');
const cases = readdirSync(FIXTURES);

describe('dump matches the testfiles result format', () => {
  it('has fixtures to check', () => {
    expect(cases.length).toBeGreaterThanOrEqual(12);
  });

  for (const name of cases) {
    const dir = join(FIXTURES, name);
    const source = readFileSync(join(dir, 'Dockerfile'), 'utf8');
    if (existsSync(join(dir, 'result'))) {
      it(`prints ${name} as BuildKit does`, () => {
        const result = parse(source);
        expect(result.errors).toEqual([]);
        expect(dump(result)).toBe(readFileSync(join(dir, 'result'), 'utf8'));
      });
    } else {
      it(`refuses ${name} as BuildKit does`, () => {
        const [expected] = readFileSync(join(dir, 'error'), 'utf8').split('\n');
        const [error] = parse(source).errors;
        expect(error).toBeDefined();
        expect(`Dockerfile:${error!.range.line}:${error!.range.column}: ${error!.message}`).toBe(
          expected
        );
      });
    }
  }
});

describe('goQuote (Go strconv.Quote)', () => {
  it('escapes as Go does', () => {
    expect(goQuote('a "b" \\ c')).toBe('"a \\"b\\" \\\\ c"');
    expect(goQuote('\t\n\r\b\f\v\x07')).toBe('"\\t\\n\\r\\b\\f\\v\\a"');
    expect(goQuote('\x00\x1b\x7f')).toBe('"\\x00\\x1b\\x7f"');
    expect(goQuote('♥ é ☃')).toBe('"♥ é ☃"');
    expect(goQuote('\u00a0\u200b')).toBe('"\\u00a0\\u200b"');
  });

  it('prints flag lists as %q of a slice', () => {
    expect(goQuoteList(['--a=b', '--c'])).toBe('["--a=b" "--c"]');
  });
});
