import { resolveReference, type TemplateSource } from './template';

/** A mapping's `match`: `headers.<name>` or `body.<path>` → the value it must have. */
export type MatchConditions = Record<string, unknown>;

export interface ConditionResult {
  reference: string;
  expected: unknown;
  /** What the delivery holds there; undefined when nothing is. */
  actual: unknown;
  holds: boolean;
}

/**
 * Each condition with whether it holds: the value at `headers.<name>` / `body.<path>` equals
 * the configured one. Scalars compare as text (YAML `3` matches a JSON `"3"`; headers are
 * always text); objects and arrays compare by their JSON.
 */
export function evaluateConditions(
  match: MatchConditions,
  source: TemplateSource
): ConditionResult[] {
  return Object.entries(match).map(([reference, expected]) => {
    const actual = resolveReference(source, reference);
    return { reference, expected, actual, holds: sameValue(actual, expected) };
  });
}

/** Every condition holds (none: always). Stops at the first that fails. */
export function mappingMatches(match: MatchConditions, source: TemplateSource): boolean {
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
