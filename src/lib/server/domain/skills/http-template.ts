import { pathSegments, resolvePath } from '$lib/webhooks/template';

/**
 * `{params.x}` (and `{params.a.b[0]}`) in an http skill's url and body, in one pass (a
 * filled-in value is never scanned again), own properties only. A missing param is empty.
 */
const PLACEHOLDER = /\{params((?:\.[^.[\]{}\s]+|\[\d+\])+)\}/g;

type Encode = (value: unknown) => string;

function render(template: string, params: Record<string, unknown>, encode: Encode): string {
  return template.replace(PLACEHOLDER, (_m, path: string) =>
    encode(resolvePath(params, pathSegments(path)))
  );
}

const text = (value: unknown) =>
  value === undefined || value === null
    ? ''
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

/** In the url a value is percent-encoded: it cannot add a path, a query or another host. */
export const renderUrl = (template: string, params: Record<string, unknown>) =>
  render(template, params, (v) => encodeURIComponent(text(v)));

/**
 * In a JSON body a value is JSON-escaped: a string fits inside the quotes around the
 * placeholder (`"{params.title}"`), any other value goes in as its JSON (`{params.count}`).
 * Elsewhere the value goes in as text.
 */
export function renderBody(template: string, params: Record<string, unknown>, json: boolean) {
  if (!json) return render(template, params, text);
  return render(template, params, (v) =>
    typeof v === 'string' ? JSON.stringify(v).slice(1, -1) : JSON.stringify(v ?? null)
  );
}
