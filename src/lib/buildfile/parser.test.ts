import { describe, expect, it } from 'vitest';
import { dumpInstruction } from './dump';
import { parse } from './parser';
import type { Instruction } from './types';

/** The file's instructions as dump lines, for short expectations. */
const lines = (source: string) => parse(source).instructions.map(dumpInstruction);
const only = (source: string): Instruction => {
  const result = parse(source);
  expect(result.errors).toEqual([]);
  return result.instructions[result.instructions.length - 1]!;
};

describe('parser directives', () => {
  it('reads syntax, escape and check at the top, keys lowercased, not kept as comments', () => {
    const result = parse(
      '# syntax=docker/dockerfile:1\n#ESCAPE = `\n# check=skip=JSONArgsRecommended;error=true\n# a comment\nFROM a\n'
    );
    expect(result.errors).toEqual([]);
    expect(result.directives.map((d) => [d.name, d.value])).toEqual([
      ['syntax', 'docker/dockerfile:1'],
      ['escape', '`'],
      ['check', 'skip=JSONArgsRecommended;error=true']
    ]);
    expect(result.escapeToken).toBe('`');
    expect(result.instructions[0]!.comments).toEqual(['a comment']);
    expect(result.directives[0]!.valueRange).toEqual({
      line: 1,
      column: 10,
      endLine: 1,
      endColumn: 29
    });
  });

  it('stops looking after a comment, a blank line, an unknown directive or an instruction', () => {
    for (const before of ['# hello\n', '\n', '# foo=bar\n', 'FROM a\n']) {
      const result = parse(`${before}# escape=\`\nFROM b\nRUN x \`\n  y\n`);
      expect(result.directives).toEqual([]);
      expect(result.escapeToken).toBe('\\');
      const run = result.instructions.find((i) => i.name === 'run');
      expect(run!.args[0]!.value).toBe('x `');
    }
  });

  it('refuses a repeated directive and an invalid escape token, without throwing', () => {
    const twice = parse('# escape=`\n# Escape=\\\nFROM a\n');
    expect(twice.errors).toEqual([
      {
        message: 'only one escape parser directive can be used',
        range: { line: 2, column: 1, endLine: 2, endColumn: 11 }
      }
    ]);
    expect(parse('# escape=x\nFROM a\n').errors[0]?.message).toBe(
      "invalid escape token 'x' does not match ` or \\"
    );
  });
});

describe('line continuations', () => {
  it('joins lines ending in the escape character, keeping the spaces before it', () => {
    expect(lines('RUN a \\\n    b\\\nc')).toEqual(['run "a     bc"']);
  });

  it('uses the backtick when escape=` and then a backslash is plain text', () => {
    expect(lines('# escape=`\nRUN dir C:\\ `\n  /s\nRUN echo \\\n')).toEqual([
      'run "dir C:\\\\   /s"',
      'run "echo \\\\"'
    ]);
  });

  it('does not continue a line ending in an escaped escape character', () => {
    expect(lines('RUN echo \\\\\nRUN next')).toEqual(['run "echo \\\\\\\\"', 'run "next"']);
    expect(lines('RUN echo \\\\ \\\n  more')).toEqual(['run "echo \\\\\\\\   more"']);
  });

  it('skips comment lines and notes empty lines inside a continuation', () => {
    const result = parse('FROM a\nRUN one \\\n# comment \\\n    # indented\n\n   \ttwo\n');
    expect(result.instructions[1]!.args[0]!.value).toBe('one    \ttwo');
    expect(result.instructions[1]!.emptyContinuationLines).toEqual([5]);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatchObject({
      rule: 'NoEmptyContinuation',
      message: 'Empty continuation line found in: RUN one    \ttwo',
      range: { line: 2, endLine: 6 }
    });
  });

  it('ends a continuation at the end of the file', () => {
    expect(lines('FROM a\nRUN something \\')).toEqual(['from "a"', 'run "something"']);
  });
});

describe('JSON and shell form', () => {
  it('takes a JSON array of strings as exec form', () => {
    const run = only('RUN [ "echo",  "a  b" ]');
    expect(run.json).toBe(true);
    expect(run.args.map((a) => a.value)).toEqual(['echo', 'a  b']);
    expect(run.args[1]!.range).toEqual({ line: 1, column: 16, endLine: 1, endColumn: 22 });
  });

  it('falls back to the shell form for invalid JSON, every space kept', () => {
    const run = only('CMD [ "echo",   "two  spaces"   oops ]  ');
    expect(run.json).toBe(false);
    expect(run.args.map((a) => a.value)).toEqual(['[ "echo",   "two  spaces"   oops ]']);
    expect(lines("CMD ['a','b']")).toEqual(["cmd \"['a','b']\""]);
  });

  it('refuses valid JSON holding something other than strings', () => {
    for (const source of ['CMD ["a", 1]', 'ENTRYPOINT [["a"]]', 'COPY [null, "b"]']) {
      expect(parse(source).errors[0]?.message).toBe(
        'when using JSON array syntax, arrays must be comprised of strings only'
      );
    }
  });
});

describe('flags', () => {
  it('accepts any --flag on any instruction, quotes and backslashes processed', () => {
    const copy = only('COPY --from="my stage" --chmod=0644 --link --bogus=\\x -- --not-a-flag /d');
    expect(copy.flags.map((f) => [f.value, f.name, f.flagValue])).toEqual([
      ['--from=my stage', 'from', 'my stage'],
      ['--chmod=0644', 'chmod', '0644'],
      ['--link', 'link', null],
      ['--bogus=x', 'bogus', 'x']
    ]);
    expect(copy.args.map((a) => a.value)).toEqual(['--not-a-flag', '/d']);
    expect(copy.flags[1]!.range).toEqual({ line: 1, column: 24, endLine: 1, endColumn: 36 });
    expect(lines('USER --x=1 app\nWORKDIR --y /w\nEXPOSE --z 80')).toEqual([
      'user ["--x=1"] "app"',
      'workdir ["--y"] "/w"',
      'expose ["--z"] "80"'
    ]);
  });

  it('reads RUN --mount, --network and --security as flags', () => {
    const run = only(
      'RUN --mount=type=cache,target=/root/.npm --network=none --security=sandbox npm ci'
    );
    expect(run.flags.map((f) => f.name)).toEqual(['mount', 'network', 'security']);
    expect(run.args[0]!.value).toBe('npm ci');
  });
});

describe('ENV and LABEL', () => {
  it('reads key=value pairs with quotes and escapes kept for expansion', () => {
    const env = only('ENV A=1 B="two words" C=three\\ four D=');
    expect(env.pairs!.map((p) => [p.key.value, p.value.value, p.separator])).toEqual([
      ['A', '1', '='],
      ['B', '"two words"', '='],
      ['C', 'three\\ four', '='],
      ['D', '', '=']
    ]);
    expect(env.pairs![1]!.key.range).toEqual({ line: 1, column: 9, endLine: 1, endColumn: 10 });
    expect(env.pairs![1]!.value.range).toEqual({ line: 1, column: 11, endLine: 1, endColumn: 22 });
  });

  it('reads the legacy key value form: the value is the rest of the line', () => {
    const label = only('LABEL maintainer  Jane Doe <jane@example.com>');
    const [pair] = label.pairs!;
    expect([pair!.key.value, pair!.value.value, pair!.separator]).toEqual([
      'maintainer',
      'Jane Doe <jane@example.com>',
      ''
    ]);
    expect(dumpInstruction(label)).toBe('label "maintainer" "Jane Doe <jane@example.com>" ""');
  });

  it('refuses a legacy pair without a value and a word without = after key=value', () => {
    expect(parse('ENV PATH').errors[0]?.message).toBe('ENV must have two arguments');
    expect(parse('LABEL a').errors[0]?.message).toBe('LABEL must have two arguments');
    expect(parse('ENV a=1 b').errors[0]?.message).toBe(
      'Syntax error - can\'t find = in "b". Must be of the form: name=value'
    );
  });
});

describe('ARG', () => {
  it('keeps each declaration as written, with or without a default', () => {
    expect(lines('ARG A\nARG B=1 C="x y" D=\nARG E=\'q\'')).toEqual([
      'arg "A"',
      'arg "B=1" "C=\\"x y\\"" "D="',
      'arg "E=\'q\'"'
    ]);
  });
});

describe('ONBUILD', () => {
  it('parses the trigger as an instruction with its own flags and ranges', () => {
    const onbuild = only('ONBUILD  COPY --chown=app . /app');
    expect(onbuild.trigger?.name).toBe('copy');
    expect(onbuild.trigger?.flags[0]?.value).toBe('--chown=app');
    expect(onbuild.trigger?.keywordRange).toEqual({
      line: 1,
      column: 10,
      endLine: 1,
      endColumn: 14
    });
    expect(dumpInstruction(onbuild)).toBe('onbuild (copy ["--chown=app"] "." "/app")');
  });
});

describe('heredocs', () => {
  const heredocs = (source: string) => only(source).heredocs;

  it('reads the body up to the delimiter, lines kept as written', () => {
    const run = only('FROM a\nRUN <<EOF\n# not a comment\necho "$HOME"\nEOF\nRUN next');
    expect(run.name).toBe('run');
    const result = parse('FROM a\nRUN <<EOF\n# not a comment\necho "$HOME"\nEOF\nRUN next');
    const [doc] = result.instructions[1]!.heredocs;
    expect(doc).toMatchObject({ name: 'EOF', expand: true, chomp: false, fileDescriptor: 0 });
    expect(doc!.content).toBe('# not a comment\necho "$HOME"\n');
    expect(doc!.range).toEqual({ line: 2, column: 5, endLine: 2, endColumn: 10 });
    expect(doc!.bodyRange).toEqual({ line: 3, column: 1, endLine: 5, endColumn: 4 });
    expect(result.instructions[1]!.range).toEqual({ line: 2, column: 1, endLine: 5, endColumn: 4 });
    expect(result.instructions.map((i) => i.name)).toEqual(['from', 'run', 'run']);
  });

  it('<<- ends at a tab-indented delimiter and keeps the tabs in the body', () => {
    const [doc] = heredocs('RUN <<-EOT\n\tbaz\n\tEOT');
    expect(doc).toMatchObject({ name: 'EOT', chomp: true, content: '\tbaz\n' });
  });

  it('turns expansion off when any part of the delimiter is quoted', () => {
    expect(heredocs("RUN <<'EOF'\nEOF")[0]).toMatchObject({ name: 'EOF', expand: false });
    expect(heredocs('RUN <<"EOF"\nEOF')[0]).toMatchObject({ name: 'EOF', expand: false });
    expect(heredocs("RUN <<eo'f'\neof")[0]).toMatchObject({ name: 'eof', expand: false });
    expect(heredocs("RUN <<eo\\'f\neo'f")[0]).toMatchObject({ name: "eo'f", expand: true });
    expect(heredocs("RUN <<'one two'\none two")[0]).toMatchObject({
      name: 'one two',
      expand: false
    });
    expect(heredocs('RUN <<$EOF\n$EOF')[0]).toMatchObject({ name: '$EOF', expand: true });
  });

  it('reads several heredocs on one line in order', () => {
    const docs = heredocs('COPY <<X <<Y /dest\nY\nX\nX\nY');
    expect(docs.map((d) => [d.name, d.content])).toEqual([
      ['X', 'Y\n'],
      ['Y', 'X\n']
    ]);
  });

  it('accepts spaces after << and a file-descriptor prefix', () => {
    expect(heredocs('RUN <<  EOF  > foo\nbody\nEOF')[0]).toMatchObject({
      name: 'EOF',
      content: 'body\n'
    });
    expect(heredocs('RUN << -EOF\n-EOF')[0]?.name).toBe('-EOF');
    expect(heredocs('RUN 3<<EOF cat /dev/fd/3\nx\nEOF')[0]).toMatchObject({
      name: 'EOF',
      fileDescriptor: 3
    });
  });

  it('reads heredocs in ONBUILD triggers, with flags before them', () => {
    expect(only('ONBUILD RUN --network=none <<EOF\nx\nEOF').trigger?.heredocs[0]?.content).toBe(
      'x\n'
    );
  });

  it('finds none in JSON form, quoted words, other instructions or a line with an open quote', () => {
    expect(lines('FROM a\nRUN ["<<EOF"]\nRUN "<<EOF"\nUSER <<EOF\nEOF\nRUN <<\'EOF\nEOF')).toEqual([
      'from "a"',
      'run "<<EOF"',
      'run "\\"<<EOF\\""',
      'user "<<EOF"',
      'eof ""',
      'run "<<\'EOF"',
      'eof ""'
    ]);
  });

  it('refuses an unterminated heredoc', () => {
    const result = parse('FROM a\nRUN <<EOF\necho\n');
    expect(result.errors).toEqual([
      { message: 'unterminated heredoc', range: { line: 2, column: 1, endLine: 3, endColumn: 6 } }
    ]);
  });
});

describe('the file as a whole', () => {
  it('keeps the keyword as written and lowercases the name', () => {
    const from = only('  fRoM   alpine:3.20   AS   build  ');
    expect([from.keyword, from.name]).toEqual(['fRoM', 'from']);
    expect(from.args.map((a) => a.value)).toEqual(['alpine:3.20', 'AS', 'build']);
    expect(from.args[2]!.range).toEqual({ line: 1, column: 29, endLine: 1, endColumn: 34 });
    expect(from.range).toEqual({ line: 1, column: 3, endLine: 1, endColumn: 34 });
  });

  it('ranges a token across continuation lines to where it was written', () => {
    const run = only('FROM a\nRUN --mount=type=secret,id=x \\\n    echo \\\n    done');
    expect(run.flags[0]!.range).toEqual({ line: 2, column: 5, endLine: 2, endColumn: 29 });
    expect(run.args[0]!.range).toEqual({ line: 3, column: 5, endLine: 4, endColumn: 9 });
  });

  it('strips a byte-order mark and CRLF line endings', () => {
    const result = parse('\uFEFF# escape=`\r\nFROM a\r\nRUN x `\r\n  y\r\n');
    expect(result.escapeToken).toBe('`');
    expect(result.instructions.map(dumpInstruction)).toEqual(['from "a"', 'run "x   y"']);
  });

  it('keeps unknown instructions as BuildKit does (one empty argument)', () => {
    expect(lines('FROM a\nFOO bar baz')).toEqual(['from "a"', 'foo ""']);
  });

  it('attaches the comments just above an instruction', () => {
    const result = parse('# one\n# two\n#\n# three\nFROM a\n');
    expect(result.instructions[0]!.comments).toEqual(['three']);
  });

  it('refuses a file with no instructions', () => {
    for (const source of ['', '# only a comment\n', '\n\n']) {
      expect(parse(source).errors.map((e) => e.message)).toEqual(['file with no instructions']);
    }
  });

  it('goes on after an error so the rest of the file is still there', () => {
    const result = parse('FROM a\nENV x\nRUN y\n');
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.range).toEqual({ line: 2, column: 1, endLine: 2, endColumn: 6 });
    expect(result.instructions.map((i) => i.name)).toEqual(['from', 'env', 'run']);
  });
});
