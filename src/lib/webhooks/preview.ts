import { templateHeaders } from './headers';
import { evaluateConditions, type ConditionResult, type MatchConditions } from './match';
import { renderTemplate } from './template';

export interface PreviewResult {
  conditions: ConditionResult[];
  /** Every condition holds: the server would queue a turn (else answer `ignored`). */
  matched: boolean;
  /** The turn's message as the server would render it (rendered even when not matched). */
  message: string;
}

/**
 * A mapping against a sample delivery, on exactly the code the server's route runs: the
 * same header filtering, conditions and template.
 */
export function preview(
  mapping: { match: MatchConditions; message: string },
  sample: { headers: Readonly<Record<string, string | string[] | undefined>>; body: unknown }
): PreviewResult {
  const source = { headers: templateHeaders(sample.headers), body: sample.body };
  const conditions = evaluateConditions(mapping.match, source);
  return {
    conditions,
    matched: conditions.every((c) => c.holds),
    message: renderTemplate(mapping.message, source)
  };
}
