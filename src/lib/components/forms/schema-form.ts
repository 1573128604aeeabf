import { z } from 'zod';
import { compileParamsSchema, paramsSchemaProblem } from '$lib/skills/params';

/*
 * A params form from a JSON Schema: which control each property gets, the form's draft values
 * (strings and booleans, keyed by property path) to and from params, and validation by the
 * very code the server checks with ($lib/skills/params: zod's fromJSONSchema). Pure: no DOM, unit-tested.
 */

// The console's CSP has no unsafe-eval: in the browser zod must not even probe `new Function`
// (the probe alone reports a CSP violation). The server (which renders pages too) keeps its JIT.
if (typeof document !== 'undefined') z.config({ jitless: true });

export type JsonSchema = Record<string, unknown>;
type Scalar = 'string' | 'number' | 'integer' | 'boolean';

interface FieldBase {
  /** Property path joined with `.`: the draft's key, the error's key and the control's id. */
  path: string;
  key: string;
  label: string;
  description: string | null;
  required: boolean;
}

export interface TextField extends FieldBase {
  kind: 'text';
  inputType: 'text' | 'email' | 'url' | 'date' | 'datetime-local' | 'time';
  pattern: string | null;
  minLength: number | null;
  maxLength: number | null;
}
export interface SelectField extends FieldBase {
  kind: 'select';
  options: (string | number)[];
  numeric: boolean;
}
export interface NumberField extends FieldBase {
  kind: 'number';
  integer: boolean;
  min: number | null;
  max: number | null;
}
export interface ListField extends FieldBase {
  kind: 'list';
  itemType: Scalar;
}
export interface ObjectField extends FieldBase {
  kind: 'object';
  fields: FormField[];
}
export interface PlainField extends FieldBase {
  kind: 'boolean' | 'json';
}
export type FormField =
  TextField | SelectField | NumberField | ListField | ObjectField | PlainField;

/** The form's values: text for inputs, selects, lists (one item a line) and JSON; booleans for checkboxes. */
export type Draft = Record<string, string | boolean>;

export interface FormShape {
  fields: FormField[];
  /** The root takes properties it does not list (or lists none): edit those as JSON. */
  open: boolean;
}

const FORMAT_INPUT: Record<string, 'email' | 'url' | 'date' | 'datetime-local' | 'time'> = {
  email: 'email',
  uri: 'url',
  url: 'url',
  date: 'date',
  'date-time': 'datetime-local',
  time: 'time'
};

const isObject = (v: unknown): v is JsonSchema =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A property's single type, if it has one (`["string", "null"]` counts as string). */
function typeOf(schema: JsonSchema): string | null {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) {
    const real = t.filter((x) => x !== 'null');
    return real.length === 1 && typeof real[0] === 'string' ? real[0] : null;
  }
  if (Array.isArray(schema.enum)) return 'enum';
  return null;
}

export function formShape(schema: JsonSchema): FormShape {
  const props = isObject(schema.properties) ? schema.properties : {};
  return {
    fields: fieldsOf(schema, ''),
    open: Object.keys(props).length === 0 || schema.additionalProperties !== false
  };
}

function fieldsOf(schema: JsonSchema, prefix: string): FormField[] {
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(props).map(([key, sub]) =>
    fieldFor(key, prefix ? `${prefix}.${key}` : key, isObject(sub) ? sub : {}, required.has(key))
  );
}

function fieldFor(key: string, path: string, s: JsonSchema, required: boolean): FormField {
  const base: FieldBase = {
    path,
    key,
    label: str(s.title) ?? key,
    description: str(s.description),
    required
  };
  const type = typeOf(s);
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const options = s.enum.filter((o) => typeof o === 'string' || typeof o === 'number');
    if (options.length === s.enum.length)
      return {
        ...base,
        kind: 'select',
        options,
        numeric: options.some((o) => typeof o === 'number')
      };
  }
  switch (type) {
    case 'string':
      return {
        ...base,
        kind: 'text',
        inputType: FORMAT_INPUT[str(s.format) ?? ''] ?? 'text',
        pattern: str(s.pattern),
        minLength: num(s.minLength),
        maxLength: num(s.maxLength)
      };
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: 'number',
        integer: type === 'integer',
        min: num(s.minimum),
        max: num(s.maximum)
      };
    case 'boolean':
      return { ...base, kind: 'boolean' };
    case 'array': {
      const items = isObject(s.items) ? typeOf(s.items) : null;
      if (items === 'string' || items === 'number' || items === 'integer' || items === 'boolean')
        return { ...base, kind: 'list', itemType: items };
      return { ...base, kind: 'json' };
    }
    case 'object':
      if (isObject(s.properties) && Object.keys(s.properties).length > 0)
        return { ...base, kind: 'object', fields: fieldsOf(s, path) };
      return { ...base, kind: 'json' };
    default:
      return { ...base, kind: 'json' };
  }
}

/** Every field with a value of its own (fieldsets are walked, not listed). */
function leaves(fields: FormField[]): FormField[] {
  return fields.flatMap((f) => (f.kind === 'object' ? leaves(f.fields) : [f]));
}

function everyField(fields: FormField[]): FormField[] {
  return fields.flatMap((f) => (f.kind === 'object' ? [f, ...everyField(f.fields)] : [f]));
}

function at(params: unknown, path: string): unknown {
  let v: unknown = params;
  for (const key of path.split('.')) v = isObject(v) ? v[key] : undefined;
  return v;
}

/** The draft that shows `params`; properties it lacks show their schema's default. */
export function draftFor(schema: JsonSchema, params: Record<string, unknown>): Draft {
  const draft: Draft = {};
  const defaults = (path: string) => at(defaultsOf(schema), path);
  for (const f of leaves(formShape(schema).fields)) {
    const v = at(params, f.path) ?? defaults(f.path);
    if (f.kind === 'boolean') draft[f.path] = v === true;
    else if (v === undefined || v === null) draft[f.path] = '';
    else if (f.kind === 'list') draft[f.path] = Array.isArray(v) ? v.map(String).join('\n') : '';
    else if (f.kind === 'json') draft[f.path] = JSON.stringify(v, null, 2);
    else draft[f.path] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  return draft;
}

function defaultsOf(schema: JsonSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = isObject(schema.properties) ? schema.properties : {};
  for (const [key, sub] of Object.entries(props)) {
    if (!isObject(sub)) continue;
    if (sub.default !== undefined) out[key] = sub.default;
    else if (isObject(sub.properties)) out[key] = defaultsOf(sub);
  }
  return out;
}

/** The params a draft stands for; empty optional fields are left out. */
export function paramsFrom(
  shape: FormShape,
  draft: Draft
): { params: Record<string, unknown>; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const build = (fields: FormField[]): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      const v = f.kind === 'object' ? build(f.fields) : valueOf(f, draft[f.path], errors);
      if (f.kind === 'object' && Object.keys(v as object).length === 0 && !f.required) continue;
      if (v !== undefined) out[f.key] = v;
    }
    return out;
  };
  return { params: build(shape.fields), errors };
}

function valueOf(
  f: FormField,
  raw: string | boolean | undefined,
  errors: Record<string, string>
): unknown {
  if (f.kind === 'boolean') return raw === true;
  const text = typeof raw === 'string' ? raw : '';
  if (text.trim() === '') return undefined;
  switch (f.kind) {
    case 'select':
      return f.numeric && text !== '' && !Number.isNaN(Number(text)) ? Number(text) : text;
    case 'number':
      return scalar(f.integer ? 'integer' : 'number', text.trim(), f.path, errors);
    case 'list': {
      const items = text
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      return items.map((item) => scalar(f.itemType, item, f.path, errors));
    }
    case 'json':
      try {
        return JSON.parse(text) as unknown;
      } catch {
        errors[f.path] = 'Not valid JSON';
        return undefined;
      }
    default:
      return text;
  }
}

function scalar(type: Scalar, text: string, path: string, errors: Record<string, string>): unknown {
  if (type === 'string') return text;
  if (type === 'boolean') {
    if (text === 'true' || text === 'false') return text === 'true';
    errors[path] = `"${text}" is not true or false`;
    return text;
  }
  const n = Number(text);
  if (Number.isNaN(n)) errors[path] = `"${text}" is not a number`;
  else if (type === 'integer' && !Number.isInteger(n))
    errors[path] = `${text} is not a whole number`;
  return Number.isNaN(n) ? text : n;
}

/** Why the server could not check params by this schema; null when it can. */
export function schemaProblem(schema: unknown): string | null {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return 'Must be a JSON object';
  const s = schema as JsonSchema;
  if (s.type !== undefined && s.type !== 'object')
    return 'Must describe an object: "type": "object"';
  const problem = paramsSchemaProblem(s);
  return problem && `Not a schema Berth can check: ${problem}`;
}

/**
 * Checks params by the schema, as the server will: errors keyed by the nearest field's path,
 * `''` for the params as a whole. A schema zod cannot read is left to the server.
 */
export function validateParams(
  schema: JsonSchema,
  params: Record<string, unknown>
): Record<string, string> {
  if (paramsSchemaProblem(schema)) return {};
  const result = compileParamsSchema(schema).safeParse(params);
  if (result.success) return {};
  const paths = everyField(formShape(schema).fields).map((f) => f.path);
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const full = issue.path.map(String);
    // The deepest field the issue falls in: `tags.0` belongs to the list `tags`.
    let key = '';
    for (let n = full.length; n > 0; n--) {
      const candidate = full.slice(0, n).join('.');
      if (paths.includes(candidate)) {
        key = candidate;
        break;
      }
    }
    const where = key === '' && full.length ? `${full.join('.')}: ` : '';
    errors[key] ??= where + readable(issue.message);
  }
  return errors;
}

function readable(message: string): string {
  if (/received undefined$/.test(message)) return 'Required';
  return message.replace(/^Invalid input: /, '').replace(/^./, (c) => c.toUpperCase());
}

/** A number field's help: what it takes. */
export function rangeHint(f: { integer: boolean; min: number | null; max: number | null }): string {
  const what = f.integer ? 'A whole number' : 'A number';
  if (f.min !== null && f.max !== null) return `${what} from ${f.min} to ${f.max}.`;
  if (f.min !== null) return `${what}, at least ${f.min}.`;
  if (f.max !== null) return `${what}, at most ${f.max}.`;
  return `${what}.`;
}
