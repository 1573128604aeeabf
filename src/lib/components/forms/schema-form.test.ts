import { describe, expect, it } from 'vitest';
import { draftFor, formShape, paramsFrom, validateParams, type JsonSchema } from './schema-form';

const schema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'target'],
  properties: {
    name: { type: 'string', title: 'Name', description: 'Who', minLength: 2, pattern: '^[a-z]+$' },
    mail: { type: 'string', format: 'email' },
    level: { type: 'string', enum: ['low', 'high'], default: 'low' },
    count: { type: 'integer', minimum: 1, maximum: 5 },
    ratio: { type: 'number' },
    dry: { type: 'boolean', default: true },
    tags: { type: 'array', items: { type: 'string' } },
    ports: { type: 'array', items: { type: 'integer' } },
    target: {
      type: 'object',
      required: ['host'],
      properties: { host: { type: 'string' }, port: { type: 'integer' } }
    },
    extra: { type: 'object' },
    either: { anyOf: [{ type: 'string' }, { type: 'number' }] }
  }
};

describe('the schema → form mapping', () => {
  it('gives each property the control its type calls for', () => {
    const { fields, open } = formShape(schema);
    expect(open).toBe(false);
    expect(fields.map((f) => [f.path, f.kind])).toEqual([
      ['name', 'text'],
      ['mail', 'text'],
      ['level', 'select'],
      ['count', 'number'],
      ['ratio', 'number'],
      ['dry', 'boolean'],
      ['tags', 'list'],
      ['ports', 'list'],
      ['target', 'object'],
      ['extra', 'json'],
      ['either', 'json']
    ]);
    expect(fields[0]).toMatchObject({
      label: 'Name',
      description: 'Who',
      required: true,
      minLength: 2,
      pattern: '^[a-z]+$'
    });
    expect(fields[1]).toMatchObject({ label: 'mail', inputType: 'email', required: false });
    expect(fields[2]).toMatchObject({ options: ['low', 'high'], numeric: false });
    expect(fields[3]).toMatchObject({ integer: true, min: 1, max: 5 });
    const target = fields.find((f) => f.path === 'target');
    if (target?.kind !== 'object') throw new Error('target is not a fieldset');
    expect(target.fields.map((f) => [f.path, f.required])).toEqual([
      ['target.host', true],
      ['target.port', false]
    ]);
  });

  it('takes a schema without properties, or with additional ones, as open (edited as JSON)', () => {
    expect(formShape({ type: 'object', additionalProperties: {} })).toEqual({
      fields: [],
      open: true
    });
    expect(formShape({ type: 'object', properties: { a: { type: 'string' } } }).open).toBe(true);
  });
});

describe('draft ↔ params', () => {
  it('starts from the defaults and leaves empty optional fields out', () => {
    const shape = formShape(schema);
    const draft = draftFor(schema, {});
    expect(draft).toMatchObject({ name: '', level: 'low', dry: true, tags: '', 'target.host': '' });
    draft.name = 'abc';
    draft['target.host'] = 'db';
    expect(paramsFrom(shape, draft)).toEqual({
      params: { name: 'abc', level: 'low', dry: true, target: { host: 'db' } },
      errors: {}
    });
  });

  it('converts numbers, lists and JSON, and says what it cannot read', () => {
    const shape = formShape(schema);
    const draft = draftFor(schema, {});
    Object.assign(draft, {
      count: '3',
      ratio: '0.5',
      tags: 'a\n\n b \n',
      ports: '80\n443',
      extra: '{"k": [1]}'
    });
    expect(paramsFrom(shape, draft).params).toMatchObject({
      count: 3,
      ratio: 0.5,
      tags: ['a', 'b'],
      ports: [80, 443],
      extra: { k: [1] }
    });
    Object.assign(draft, { count: '2.5', ratio: 'lots', ports: '80\nhttp', extra: '{nope' });
    expect(paramsFrom(shape, draft).errors).toEqual({
      count: '2.5 is not a whole number',
      ratio: '"lots" is not a number',
      ports: '"http" is not a number',
      extra: 'Not valid JSON'
    });
  });

  it('shows params it is given, so the JSON view and the form round-trip', () => {
    const params = {
      name: 'abc',
      level: 'high',
      count: 4,
      dry: false,
      tags: ['x', 'y'],
      target: { host: 'h', port: 5432 },
      extra: { deep: true }
    };
    expect(paramsFrom(formShape(schema), draftFor(schema, params)).params).toEqual(params);
  });
});

describe('validation by the schema (the server’s rules)', () => {
  it('passes valid params', () => {
    expect(validateParams(schema, { name: 'abc', target: { host: 'h' } })).toEqual({});
  });

  it('puts each problem on its field, nested ones included', () => {
    const errors = validateParams(schema, {
      name: 'A',
      mail: 'nope',
      level: 'mid',
      count: 9,
      tags: ['ok', 3],
      target: {}
    });
    expect(Object.keys(errors).sort()).toEqual(
      ['count', 'level', 'mail', 'name', 'tags', 'target.host'].sort()
    );
    expect(errors['target.host']).toBe('Required');
    expect(errors.mail).toMatch(/email/i);
    expect(errors.count).toMatch(/5/);
  });

  it('reports missing required fields as Required', () => {
    expect(validateParams(schema, {})).toEqual({ name: 'Required', target: 'Required' });
  });

  it('reports properties the schema refuses on the params as a whole', () => {
    expect(validateParams(schema, { name: 'abc', target: { host: 'h' }, bogus: 1 })['']).toMatch(
      /bogus/
    );
  });
});
