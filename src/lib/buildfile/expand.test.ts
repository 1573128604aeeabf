import { describe, expect, it } from 'vitest';
import { expand } from './expand';

const vars: Record<string, string> = { NAME: 'app', EMPTY: '', PATH: '/usr/bin', FILE: 'a.tar.gz' };
const lookup = (name: string) => vars[name];
const value = (word: string, escape = '\\') => expand(word, lookup, escape).value;

describe('expand', () => {
  it('replaces $VAR and ${VAR}, unset ones with nothing', () => {
    expect(value('$NAME-${NAME}_$MISSING.')).toBe('app-app_.');
    expect(value('/opt/bin:$PATH')).toBe('/opt/bin:/usr/bin');
    expect(value('cost: $ 5 and $')).toBe('cost: $ 5 and $');
  });

  it('applies :- :+ - + with the empty-versus-unset difference', () => {
    expect(value('${MISSING:-x} ${EMPTY:-x} ${NAME:-x}')).toBe('x x app');
    expect(value('${MISSING-x}|${EMPTY-x}|${NAME-x}')).toBe('x||app');
    expect(value('${MISSING:+y}|${EMPTY:+y}|${NAME:+y}')).toBe('||y');
    expect(value('${MISSING+y}|${EMPTY+y}|${NAME+y}')).toBe('|y|y');
    expect(value('${MISSING:-${NAME}-$PATH}')).toBe('app-/usr/bin');
  });

  it('trims patterns and substitutes', () => {
    expect(value('${FILE#*.}|${FILE##*.}|${FILE%.*}|${FILE%%.*}')).toBe('tar.gz|gz|a.tar|a');
    expect(value('${PATH/usr/opt}|${FILE//a/A}')).toBe('/opt/bin|A.tAr.gz');
  });

  it('removes quotes: nothing expands in single quotes, double quotes expand', () => {
    expect(value(`'$NAME' "$NAME" "a b"`)).toBe('$NAME app a b');
    expect(value('\\$NAME "\\$NAME" "\\"q\\""')).toBe('$NAME $NAME "q"');
    expect(value('`$NAME \\x', '`')).toBe('$NAME \\x');
  });

  it('reports used and unset variables, defaults do not hide them', () => {
    const result = expand('$NAME ${MISSING:-d} ${OTHER}', lookup);
    expect(result.used).toEqual(['NAME', 'MISSING', 'OTHER']);
    expect(result.unset).toEqual(['MISSING', 'OTHER']);
  });

  it('returns what BuildKit refuses as an error, never throws', () => {
    expect(expand('${NAME', lookup).error).toContain("missing '}'");
    expect(expand('${}', lookup).error).toContain('bad substitution');
    expect(expand('${NAME:=x}', lookup).error).toContain('unsupported modifier (=)');
    expect(expand('${MISSING:?must be set}', lookup).error).toContain('MISSING: must be set');
    expect(expand('"open', lookup).error).toContain('double-quote');
  });
});
