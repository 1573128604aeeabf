import { describe, expect, it } from 'vitest';
import { flagsAvailable, INSTRUCTIONS, MOUNT_TYPES } from '../lint/flags.ts';
import { parse } from '../parser.ts';
import { FLAG_DOCS, INSTRUCTION_DOCS, MOUNT_TYPE_DOCS } from './docs.ts';
import { hoverAt } from './hover.ts';

describe('hover documentation', () => {
  it('has an entry for every instruction, flag and mount type the linter knows', () => {
    for (const name of INSTRUCTIONS) {
      expect(INSTRUCTION_DOCS[name]?.url, name).toMatch(/^https:\/\/docs\.docker\.com\//);
      for (const flag of Object.keys(flagsAvailable(name))) {
        expect(FLAG_DOCS[name]?.[flag]?.summary, `${name} --${flag}`).toBeTruthy();
      }
    }
    for (const type of MOUNT_TYPES) expect(MOUNT_TYPE_DOCS[type], type).toBeDefined();
  });

  const source =
    'FROM alpine:3.20\nrun --mount=type=cache,target=/c \\\n  --network=none apk add x\nONBUILD COPY --chown=1 a b\n';
  const parsed = parse(source);

  it('documents the keyword under the pointer, whatever its case', () => {
    const hover = hoverAt(parsed, 2, 2);
    expect(hover?.title).toBe('RUN');
    expect(hover?.doc.url).toBe('https://docs.docker.com/reference/dockerfile/#run');
    expect(hover?.range).toEqual({ line: 2, column: 1, endLine: 2, endColumn: 4 });
  });

  it('documents flags, on continuation lines and in ONBUILD triggers, and mount types', () => {
    expect(hoverAt(parsed, 2, 7)?.title).toBe('RUN --mount');
    expect(hoverAt(parsed, 2, 16)?.title).toBe('--mount type=cache');
    expect(hoverAt(parsed, 3, 5)?.title).toBe('RUN --network');
    expect(hoverAt(parsed, 4, 2)?.title).toBe('ONBUILD');
    expect(hoverAt(parsed, 4, 10)?.title).toBe('COPY');
    expect(hoverAt(parsed, 4, 16)?.title).toBe('COPY --chown');
  });

  it('shows nothing over arguments', () => {
    expect(hoverAt(parsed, 1, 8)).toBeNull();
    expect(hoverAt(parsed, 3, 22)).toBeNull();
  });
});
