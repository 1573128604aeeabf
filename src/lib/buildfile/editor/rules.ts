/**
 * The rules the studio's settings can switch off (the `skip` list): BuildKit's checks by their
 * BuildKit names and Berth's practices. Errors (what BuildKit refuses) stay on: switching them
 * off would hide a build that cannot succeed. rules.test.ts checks this list against the rule
 * names the linter's sources use.
 */
import { BUILDKIT_RULES, EXPERIMENTAL_RULES } from '../lint/buildkit-checks.ts';
import { DEFAULT_HINTS } from '../lint/hints.ts';

export interface RuleInfo {
  rule: string;
  group: 'BuildKit check' | 'Practice';
  description: string;
  /** Off unless the file opts in with `# check=experimental=…`. */
  experimental?: boolean;
}

const PRACTICES: Record<string, string> = {
  UnpinnedBaseImage: 'Base images should name a version (no untagged or latest base)',
  RootUser: 'The final image should run as a non-root USER',
  NoHealthcheck: 'The final image should have a HEALTHCHECK',
  PackageCacheNotRemoved:
    'Package caches (apt, apk, yum/dnf, pip, npm) should be removed in the RUN that fills them',
  ConsecutiveRun: 'Consecutive RUN instructions could be one layer',
  ManifestAfterSources: 'Copy dependency manifests and install before copying the sources',
  PreferCopy: 'COPY is preferred over ADD, except for archives and URLs',
  NoIgnoreFile: 'The build context should have an ignore file'
};

/** Errors: what BuildKit refuses. Not switchable. */
export const ERROR_RULES = [
  'SyntaxError',
  'UnknownInstruction',
  'UnknownFlag',
  'InvalidFlag',
  'IgnoredFlag',
  'InvalidInstruction',
  'InvalidCheckDirective',
  'NoStage',
  'CopyFromStage',
  'ExposeInvalidPort',
  'InvalidStopSignal',
  'InvalidHealthcheck'
];

export const SWITCHABLE_RULES: RuleInfo[] = [
  ...Object.keys(BUILDKIT_RULES).map((rule): RuleInfo => ({
    rule,
    group: 'BuildKit check',
    description: DEFAULT_HINTS[rule] ?? rule,
    ...(EXPERIMENTAL_RULES.has(rule) ? { experimental: true } : {})
  })),
  ...Object.entries(PRACTICES).map(([rule, description]): RuleInfo => ({
    rule,
    group: 'Practice',
    description
  }))
];

const REFERENCE = 'https://docs.docker.com/reference/dockerfile/';
const BEST_PRACTICES = 'https://docs.docker.com/build/building/best-practices/';

/** Where a diagnostic's rule is documented: BuildKit's rule page, else the reference. */
export function ruleUrl(rule: string, url?: string): string {
  if (url) return url;
  return rule in PRACTICES ? BEST_PRACTICES : REFERENCE;
}
