import { describe, expect, it } from 'vitest';
import { lintBuildFile } from '../lint/index.ts';
import { applyChanges, fixChanges, LineIndex } from './positions.ts';

describe('line index and fixes', () => {
  it('maps 1-based positions to offsets and back, clamping to the line', () => {
    const index = new LineIndex('ab\ncdé\n\nx');
    expect(index.offset(2, 1)).toBe(3);
    expect(index.offset(2, 99)).toBe(6);
    expect(index.offset(4, 2)).toBe(9);
    expect(index.position(5)).toEqual({ line: 2, column: 3 });
    expect(index.position(7)).toEqual({ line: 3, column: 1 });
    expect(index.lineText(2)).toBe('cdé');
  });

  it('applies a diagnostic’s fix so the diagnostic goes', () => {
    const source = 'FROM alpine:3.20\nRUM echo hi\nMAINTAINER me@example.com\n';
    const index = new LineIndex(source);
    const { diagnostics } = lintBuildFile(source);
    const unknown = diagnostics.find((d) => d.rule === 'UnknownInstruction')!;
    const fixed = applyChanges(source, fixChanges(index, unknown.fix!));
    expect(fixed).toBe('FROM alpine:3.20\nRUN echo hi\nMAINTAINER me@example.com\n');
    const after = lintBuildFile(fixed).diagnostics.map((d) => d.rule);
    expect(after).not.toContain('UnknownInstruction');
    const maintainer = lintBuildFile(fixed).diagnostics.find(
      (d) => d.rule === 'MaintainerDeprecated'
    )!;
    const relabelled = applyChanges(fixed, fixChanges(new LineIndex(fixed), maintainer.fix!));
    expect(lintBuildFile(relabelled).diagnostics.map((d) => d.rule)).not.toContain(
      'MaintainerDeprecated'
    );
  });
});
