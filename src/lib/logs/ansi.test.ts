import { describe, expect, it } from 'vitest';
import { ansiSegments, highlight, paletteColour, segmentsOf } from './ansi';

describe('ansiSegments', () => {
  it('keeps plain text as one unstyled segment', () => {
    expect(ansiSegments('hello <b>')).toEqual([{ text: 'hello <b>', style: '' }]);
  });

  it('turns named, bright, 256 and true colours into CSS, escapes gone', () => {
    const segments = ansiSegments(
      '\x1b[31mred\x1b[0m \x1b[1;93mbold\x1b[0m \x1b[38;5;196mp\x1b[0m \x1b[48;2;1;2;3mt\x1b[0m'
    );
    expect(segments.map((s) => s.text).join('')).toBe('red bold p t');
    expect(segments.find((s) => s.text === 'red')?.style).toBe('color: var(--ansi-red)');
    expect(segments.find((s) => s.text === 'bold')?.style).toBe(
      'color: var(--ansi-bright-yellow); font-weight: 700'
    );
    expect(segments.find((s) => s.text === 'p')?.style).toBe('color: rgb(255, 0, 0)');
    expect(segments.find((s) => s.text === 't')?.style).toBe('background-color: rgb(1, 2, 3)');
  });

  it('keeps markup in log text as text', () => {
    const segments = ansiSegments('\x1b[32m<script>alert(1)</script>\x1b[0m');
    expect(segments).toEqual([
      { text: '<script>alert(1)</script>', style: 'color: var(--ansi-green)' }
    ]);
  });

  it('parses an entry once', () => {
    const entry = { text: '\x1b[34mblue\x1b[0m' };
    expect(segmentsOf(entry)).toBe(segmentsOf(entry));
  });
});

describe('paletteColour', () => {
  it('maps the cube, the greys and the named colours', () => {
    expect(paletteColour(1)).toBe('var(--ansi-red)');
    expect(paletteColour(9)).toBe('var(--ansi-bright-red)');
    expect(paletteColour(16)).toBe('rgb(0, 0, 0)');
    expect(paletteColour(231)).toBe('rgb(255, 255, 255)');
    expect(paletteColour(244)).toBe('rgb(128, 128, 128)');
    expect(paletteColour(256)).toBeNull();
  });
});

describe('highlight', () => {
  it('marks every match, across segment boundaries, keeping styles', () => {
    const segments = [
      { text: 'an err', style: 'color: red' },
      { text: 'or and error', style: '' }
    ];
    const out = highlight(segments, /error/i);
    expect(out).toEqual([
      { text: 'an ', style: 'color: red' },
      { text: 'err', style: 'color: red', mark: true },
      { text: 'or', style: '', mark: true },
      { text: ' and ', style: '' },
      { text: 'error', style: '', mark: true }
    ]);
  });

  it('returns the segments unchanged with no pattern or no match', () => {
    const segments = [{ text: 'plain', style: '' }];
    expect(highlight(segments, null)).toBe(segments);
    expect(highlight(segments, /absent/i)).toBe(segments);
  });
});
