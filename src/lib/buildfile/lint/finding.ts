import type { Range } from '../types.ts';
import type { Fix, Severity } from './types.ts';

/** A diagnostic before the `# check` directive and the options decide whether and how it shows. */
export interface Finding {
  rule: string;
  /** BuildKit's checks are warnings (errors under `check=error=true`); the rest say their own. */
  severity: Severity;
  message: string;
  range: Range;
  hint?: string;
  fix?: Fix;
}
