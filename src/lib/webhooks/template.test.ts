import { describe, expect, it } from 'vitest';
import { renderTemplate, resolveReference } from './template';

const body = JSON.parse(
  '{"a":{"b":"deep"},"items":[{"id":7},{"id":8}],"n":3,"ok":false,"nil":null,' +
    '"obj":{"x":1},"__proto__":{"x":"polluted"},"evil":"{body.a.b}","key.with":"no"}'
) as unknown;
const headers = { 'x-name': 'Octo', 'x-list': ['a', 'b'] };
const render = (t: string) => renderTemplate(t, { body, headers });

describe('renderTemplate', () => {
  it('fills body paths, array indexes and headers', () => {
    expect(render('{body.a.b} {body.items[1].id} {body.items.0.id} {headers.x-name}')).toBe(
      'deep 8 7 Octo'
    );
    expect(render('{headers.X-Name}')).toBe('Octo');
    expect(render('{headers.x-list}')).toBe('a, b');
  });

  it('formats numbers, booleans and objects; null and missing become empty', () => {
    expect(render('{body.n}|{body.ok}|{body.obj}|{body.nil}|{body.nope.deeper}|{headers.no}')).toBe(
      '3|false|{"x":1}|||'
    );
    expect(render('{body.items}')).toBe('[{"id":7},{"id":8}]');
  });

  it('never reaches prototypes', () => {
    expect(render('[{body.__proto__.x}][{body.__proto__}][{body.constructor}]')).toBe('[][][]');
    expect(render('[{body.constructor.name}][{body.a.constructor}][{body.prototype}]')).toBe(
      '[][][]'
    );
    expect(render('[{body.items.length}][{body.a.b.length}][{body.a.toString}]')).toBe('[][][]');
    expect(render('[{headers.__proto__}][{headers.constructor}]')).toBe('[][]');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('fills in one pass: a value holding a placeholder is not expanded again', () => {
    expect(render('{body.evil}')).toBe('{body.a.b}');
  });

  it('leaves text that is not a placeholder alone', () => {
    expect(render('{} {body} {other.x} {body.a.b')).toBe('{} {body} {other.x} {body.a.b');
  });

  it('resolves references for mapping conditions', () => {
    expect(resolveReference({ body, headers }, 'body.a.b')).toBe('deep');
    expect(resolveReference({ body: [1, 2], headers }, 'body[1]')).toBe(2);
    expect(resolveReference({ body, headers }, 'body.items[5].id')).toBeUndefined();
    expect(resolveReference({ body: 5, headers }, 'body.a')).toBeUndefined();
  });
});
