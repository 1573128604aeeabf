/**
 * Whether a string is an image reference `docker pull` accepts: the grammar of
 * distribution/reference (ParseNormalizedNamed), which BuildKit applies to every FROM.
 * `[domain[:port]/]path[:tag][@digest]`, path components lowercase.
 */

const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const IPV6 = '\\[(?:[a-fA-F0-9:]+)\\]';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|${IPV6})(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}';
const REFERENCE = new RegExp(
  `^((?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)(?::(${TAG}))?(?:@(${DIGEST}))?$`
);

export interface ImageReference {
  name: string;
  tag?: string;
  digest?: string;
}

export function parseImageReference(value: string): ImageReference | undefined {
  if (value === '' || /^[a-f0-9]{64}$/.test(value)) return undefined;
  // The part after the registry must be lowercase (`Alpine` is refused, `Registry.io/x` is not).
  const slash = value.indexOf('/');
  const first = slash < 0 ? '' : value.slice(0, slash);
  const hasDomain = first !== '' && (/[.:]/.test(first) || first === 'localhost');
  const rest = hasDomain ? value.slice(slash + 1) : value;
  const remote = rest.split(/[:@]/)[0]!;
  if (remote !== remote.toLowerCase()) return undefined;
  const match = REFERENCE.exec(value);
  if (!match || match[1]!.length > 255) return undefined;
  return { name: match[1]!, tag: match[2], digest: match[3] };
}
