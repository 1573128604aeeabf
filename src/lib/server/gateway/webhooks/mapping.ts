import type { BerthConfig } from '../../config/config.schema';
import { resolveReference, type TemplateSource } from './template';

export type Mapping = BerthConfig['webhooks']['mappings'][string];

/**
 * Every condition holds: the value at `headers.<name>` / `body.<path>` equals the configured
 * one. Scalars compare as text (YAML `3` matches a JSON `"3"`; headers are always text);
 * objects and arrays compare by their JSON.
 */
export function mappingMatches(match: Mapping['match'], source: TemplateSource): boolean {
  for (const [reference, expected] of Object.entries(match))
    if (!sameValue(resolveReference(source, reference), expected)) return false;
  return true;
}

function sameValue(actual: unknown, expected: unknown): boolean {
  if (actual === undefined) return false;
  if (isScalar(actual) && isScalar(expected)) return String(actual) === String(expected);
  return JSON.stringify(actual) === JSON.stringify(expected);
}

const isScalar = (v: unknown): v is string | number | boolean | null =>
  v === null || ['string', 'number', 'boolean'].includes(typeof v);
