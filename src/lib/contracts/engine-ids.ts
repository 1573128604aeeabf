/**
 * Engine identifiers, checked before they reach a request path (server) and in forms (browser):
 * docker-modem and the engine route on raw path segments, so `../`, `?`, `%` or a control
 * character could reach another endpoint. The engine's own naming rules never need them.
 */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$/;
const EXEC = /^[a-f0-9]{64}$/;
const IMAGE_ID = /^(sha256:)?[a-f0-9]{12,64}$/;
// [registry[:port]/]path[/path…][:tag][@sha256:digest], the distribution spec's grammar.
const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const IMAGE_REF = new RegExp(
  `^(?:[A-Za-z0-9][A-Za-z0-9.-]*(?::[0-9]{1,5})?/)?${COMPONENT}(?:/${COMPONENT})*` +
    '(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$'
);

export type EngineIdKind = 'container' | 'network' | 'volume' | 'image' | 'exec';

export function isValidEngineId(kind: EngineIdKind, value: string): boolean {
  if (value.length === 0 || value.length > 512 || value.includes('..')) return false;
  if (kind === 'exec') return EXEC.test(value);
  if (kind === 'image') return IMAGE_ID.test(value) || IMAGE_REF.test(value);
  return NAME.test(value);
}
