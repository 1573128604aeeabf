import { describe, expect, it } from 'vitest';
import { buildModel } from '../model.ts';
import { parse } from '../parser.ts';
import { completeBuildFile } from './completion.ts';

/** Completes at the `|` in the source. */
function complete(text: string, baseImages: string[] = []) {
  const offset = text.indexOf('|');
  const source = text.slice(0, offset) + text.slice(offset + 1);
  const parsed = parse(source);
  const result = completeBuildFile(source, offset, {
    parse: parsed,
    model: () => buildModel(parsed),
    baseImages
  });
  return (
    result && {
      ...result,
      word: source.slice(result.from, offset),
      labels: result.items.map((i) => i.label)
    }
  );
}

const STAGES =
  'FROM golang:1.23 AS build\nRUN go build\nFROM alpine:3.20 AS tools\nFROM debian:12 AS final\n';

describe('completion contexts', () => {
  it('offers instructions at the start of a line, from the word typed', () => {
    const r = complete('FROM alpine:3.20\nRU|');
    expect(r?.kind).toBe('instruction');
    expect(r?.word).toBe('RU');
    expect(r?.labels).toContain('RUN');
    expect(r?.labels).toContain('HEALTHCHECK');
    expect(complete('FROM alpine:3.20\n|')?.kind).toBe('instruction');
  });

  it('offers no instruction on a continuation line, in a heredoc body or a comment', () => {
    expect(complete('FROM alpine:3.20\nRUN echo a \\\n    ec|')).toBeNull();
    expect(complete('FROM alpine:3.20\nRUN <<EOF\nec|\nEOF\n')).toBeNull();
    expect(complete('FROM alpine:3.20\n# RU|')).toBeNull();
  });

  it('takes a backtick escape as the continuation character', () => {
    expect(complete('# escape=`\nFROM alpine:3.20\nRUN echo a `\n    --|')).toBeNull();
    expect(complete('# escape=`\nFROM alpine:3.20\nRUN `\n  --net|')?.labels).toContain(
      '--network'
    );
  });

  it('offers the instruction’s own flags, valued ones ready for a value', () => {
    const run = complete('FROM alpine:3.20\nRUN --|');
    expect(run?.kind).toBe('flag');
    expect(run?.labels.sort()).toEqual(['--mount', '--network', '--security']);
    const copy = complete('FROM alpine:3.20\nCOPY --link --ch|');
    expect(copy?.word).toBe('--ch');
    const items = Object.fromEntries(copy!.items.map((i) => [i.label, i.apply]));
    expect(items['--chmod']).toBe('--chmod=');
    expect(items['--link']).toBe('--link');
    // Past the first argument, -- is the command's, not a flag.
    expect(complete('FROM alpine:3.20\nRUN apk add --|')).toBeNull();
  });

  it('offers flag values: --network, --mount keys, types and stages, COPY --from stages', () => {
    expect(complete('FROM alpine:3.20\nRUN --network=|')?.labels).toEqual([
      'default',
      'none',
      'host'
    ]);
    const key = complete('FROM alpine:3.20\nRUN --mount=type=cache,tar|');
    expect(key?.word).toBe('tar');
    expect(key?.labels).toContain('target');
    const type = complete('FROM alpine:3.20\nRUN --mount=type=ca|');
    expect(type?.word).toBe('ca');
    expect(type?.labels).toEqual(['bind', 'cache', 'tmpfs', 'secret', 'ssh']);
    expect(complete('FROM alpine:3.20\nRUN --mount=type=cache,target=|')?.labels).toContain(
      '/root/.cache'
    );
    expect(complete(`${STAGES}RUN --mount=type=bind,from=|`)?.labels).toEqual(['build', 'tools']);
    const from = complete(`${STAGES}COPY --from=b|`);
    expect(from?.word).toBe('b');
    expect(from?.labels).toEqual(['build', 'tools']);
  });

  it('offers only stages that start earlier', () => {
    const r = complete('FROM golang:1.23 AS build\nCOPY --from=|\nFROM alpine:3.20 AS later\n');
    expect(r).toBeNull();
  });

  it('offers the variables in scope after $ and ${, closing the brace', () => {
    const source =
      'ARG VERSION=1\nFROM alpine:3.20\nARG VERSION\nARG USER_NAME=app\nENV HOME_DIR=/srv\n';
    const r = complete(`${source}RUN echo \${|`);
    expect(r?.kind).toBe('variable');
    expect(r?.labels).toEqual(expect.arrayContaining(['VERSION', 'USER_NAME', 'HOME_DIR']));
    expect(r?.items.find((i) => i.label === 'HOME_DIR')?.apply).toBe('HOME_DIR}');
    const plain = complete(`${source}WORKDIR $HO|`);
    expect(plain?.word).toBe('HO');
    expect(plain?.items.find((i) => i.label === 'HOME_DIR')?.apply).toBe('HOME_DIR');
    // A global ARG not re-declared in the stage is not in its scope.
    expect(complete(`ARG ONLY_GLOBAL=1\n${source}RUN $|`)?.labels).not.toContain('ONLY_GLOBAL');
    expect(complete(`ARG BASE=alpine\nFROM \${|`)?.labels).toContain('BASE');
  });

  it('offers engine images, scratch and earlier stages after FROM, then AS', () => {
    const r = complete(`${STAGES}FROM --platform=$BUILDPLATFORM |`, ['alpine:3.20', 'node:22']);
    expect(r?.kind).toBe('image');
    expect(r?.labels).toEqual(['alpine:3.20', 'node:22', 'scratch', 'build', 'tools', 'final']);
    expect(complete('FROM alpine:3.20 a|')?.labels).toEqual(['AS']);
  });
});
