import { describe, expect, it } from 'vitest';
import { parseCheckDirective } from './config';
import { parseIgnoreFile } from './ignore';
import { parseImageReference } from './reference';
import { suggest } from './suggest';

describe('parseImageReference (distribution/reference grammar)', () => {
  it('accepts names with registries, ports, tags and digests', () => {
    expect(parseImageReference('alpine')).toEqual({
      name: 'alpine',
      tag: undefined,
      digest: undefined
    });
    expect(parseImageReference('ghcr.io/org/app:1.2')).toMatchObject({
      name: 'ghcr.io/org/app',
      tag: '1.2'
    });
    expect(parseImageReference('localhost:5000/x_y/z-w:v1')).toMatchObject({ tag: 'v1' });
    expect(parseImageReference(`a@sha256:${'0'.repeat(64)}`)?.digest).toBe(
      `sha256:${'0'.repeat(64)}`
    );
    expect(parseImageReference('Registry.Example.com/app')).toBeDefined();
  });

  it('refuses what docker pull refuses', () => {
    for (const bad of [
      '',
      'Alpine',
      'node:',
      ':1',
      'a b',
      'a//b',
      'app:-x',
      'a' + ':' + 'x'.repeat(129),
      'f'.repeat(64)
    ]) {
      expect(parseImageReference(bad), bad).toBeUndefined();
    }
  });
});

describe('parseCheckDirective', () => {
  it('reads skip, error (a Go boolean) and experimental, parts split by ;', () => {
    const config = parseCheckDirective(' skip = A, B ; error=T ');
    expect(config).toMatchObject({ skipAll: false, error: true });
    expect([...(config as { skip: Set<string> }).skip]).toEqual(['A', 'B']);
    expect(parseCheckDirective('skip=all')).toMatchObject({ skipAll: true });
    expect(parseCheckDirective('experimental=all')).toMatchObject({ experimentalAll: true });
    expect(parseCheckDirective('error=yes')).toEqual({
      invalid: 'failed to parse check option "error=yes"'
    });
    expect(parseCheckDirective('skip')).toEqual({ invalid: 'invalid check option "skip"' });
  });
});

describe('parseIgnoreFile (patternmatcher rules)', () => {
  const ignore = parseIgnoreFile(
    '# comment\n*.md\n!README.md\nbuild/\n**/tmp\ndocs/**/*.png\n/.git\nfile[0-9]\n'
  );

  it('matches paths and their parents, the last matching pattern deciding', () => {
    expect(ignore.ignores('CHANGES.md')).toBe(true);
    expect(ignore.ignores('README.md')).toBe(false);
    expect(ignore.ignores('./build/out/x.js')).toBe(true);
    expect(ignore.ignores('a/b/tmp/c')).toBe(true);
    expect(ignore.ignores('tmp')).toBe(true);
    expect(ignore.ignores('docs/img/a/b.png')).toBe(true);
    expect(ignore.ignores('docs/b.png')).toBe(true);
    expect(ignore.ignores('.git/config')).toBe(true);
    expect(ignore.ignores('file7')).toBe(true);
    expect(ignore.ignores('src/a.md')).toBe(false);
    expect(ignore.ignores('src/index.ts')).toBe(false);
  });
});

describe('suggest (BuildKit’s util/suggest)', () => {
  it('picks the closest option under distance 3, none on an exact match', () => {
    expect(suggest('mout', ['mount', 'network'])).toBe('mount');
    expect(suggest('xyzabc', ['mount'])).toBeUndefined();
    expect(suggest('mount', ['mount', 'mounts'])).toBeUndefined();
    expect(suggest('RUNN', ['RUN', 'COPY'], false)).toBe('RUN');
    expect(suggest('runn', ['RUN', 'COPY'], false)).toBe('run');
  });
});
