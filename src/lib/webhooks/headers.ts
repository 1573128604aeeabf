import type { TemplateSource } from './template';

/** Credentials never reach a template (and so never a stored message). */
const HIDDEN_FROM_TEMPLATES = new Set([
  'authorization',
  'x-gateway-token',
  'x-gitlab-token',
  'cookie',
  'proxy-authorization'
]);

/**
 * The headers a mapping sees: names in lower case (as Node gives them), credentials left out.
 * The server and the wizard's preview both build them here, so both see the same ones.
 */
export function templateHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>
): TemplateSource['headers'] {
  const visible = Object.create(null) as TemplateSource['headers'];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value !== undefined && !HIDDEN_FROM_TEMPLATES.has(lower)) visible[lower] = value;
  }
  return visible;
}

/** A header the delivery log never keeps: credentials and anything named like a secret. */
export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    HIDDEN_FROM_TEMPLATES.has(lower) ||
    lower === 'set-cookie' ||
    /token|secret|signature|key|auth|password|cookie/.test(lower)
  );
}
