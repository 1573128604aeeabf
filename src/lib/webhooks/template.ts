/**
 * Mapping templates: `{body.a.b}`, `{body.items[0].id}`, `{headers.x-name}`. One pass with no
 * recursion (a filled-in value is never scanned again); only own enumerable properties resolve, and
 * `__proto__`, `prototype` and `constructor` never do, so a template cannot reach prototypes.
 */
export interface TemplateSource {
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

const PLACEHOLDER = /\{(body|headers)((?:\.[^.[\]{}\s]+|\[\d+\])+)\}/g;
const SEGMENT = /\.([^.[\]{}\s]+)|\[(\d+)\]/g;
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

/** A path after `body` as segments: `.a.items[0].id` → ['a', 'items', '0', 'id']. */
export function pathSegments(path: string): string[] {
  return [...path.matchAll(SEGMENT)].map((m) => m[1] ?? m[2]!);
}

/** The value at `segments` under `root`, or undefined; own properties only. */
export function resolvePath(root: unknown, segments: readonly string[]): unknown {
  let value = root;
  for (const segment of segments) {
    if (FORBIDDEN.has(segment) || value === null || typeof value !== 'object') return undefined;
    // Own enumerable data only: no inherited members, no array `length`.
    if (!Object.prototype.propertyIsEnumerable.call(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** `headers.x-name` or `body.a.b[0]` against a request; header names are case-insensitive. */
export function resolveReference(source: TemplateSource, reference: string): unknown {
  if (reference.startsWith('body'))
    return resolvePath(source.body, pathSegments(reference.slice(4)));
  if (!reference.startsWith('headers.')) return undefined;
  const name = reference.slice(8).toLowerCase();
  if (FORBIDDEN.has(name) || !Object.hasOwn(source.headers, name)) return undefined;
  return source.headers[name];
}

export function renderTemplate(template: string, source: TemplateSource): string {
  return template.replace(PLACEHOLDER, (_match, root: string, path: string) =>
    format(resolveReference(source, `${root}${path}`))
  );
}

function format(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}
