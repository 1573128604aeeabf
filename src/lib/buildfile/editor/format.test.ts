import { describe, expect, it } from 'vitest';
import { formatBuildFile } from './format.ts';

describe('formatBuildFile', () => {
  it('upper-cases keywords and AS, removes indentation and extra blanks after the keyword', () => {
    const source = 'from alpine:3.20 as build\n  run   echo hi\nCopy\t--from=build /a /b\n';
    expect(formatBuildFile(source)).toBe(
      'FROM alpine:3.20 AS build\nRUN echo hi\nCOPY --from=build /a /b\n'
    );
  });

  it('keeps hand-aligned continuation lines exactly as written', () => {
    const source = [
      'FROM debian:12',
      'run   apt-get update \\',
      '    && apt-get install -y \\',
      '         curl      \\',
      '         git',
      ''
    ].join('\n');
    expect(formatBuildFile(source)).toBe(
      [
        'FROM debian:12',
        'RUN apt-get update \\',
        '    && apt-get install -y \\',
        '         curl      \\',
        '         git',
        ''
      ].join('\n')
    );
  });

  it('leaves heredoc bodies untouched, even lines that look like instructions', () => {
    const source = 'FROM alpine:3.20\nrun <<EOF\n  from  x\n    run   y\nEOF\n';
    expect(formatBuildFile(source)).toBe(
      'FROM alpine:3.20\nRUN <<EOF\n  from  x\n    run   y\nEOF\n'
    );
  });

  it('formats ONBUILD triggers and leaves comments, unknown words and JSON alone', () => {
    const source =
      '# keep   this\nFROM alpine:3.20\nonbuild   run  make\nCMD  ["a",   "b"]\nfrm x\n';
    expect(formatBuildFile(source)).toBe(
      '# keep   this\nFROM alpine:3.20\nONBUILD RUN make\nCMD ["a",   "b"]\nfrm x\n'
    );
  });

  it('changes nothing in a formatted file', () => {
    const source = 'FROM alpine:3.20 AS base\nRUN echo hi \\\n  && echo there\n';
    expect(formatBuildFile(source)).toBe(source);
  });
});
