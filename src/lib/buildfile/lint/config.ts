/**
 * The `# check=` parser directive as BuildKit's linter reads it: `skip=<rule>,<rule>` or
 * `skip=all`, `error=true|false` (a Go boolean), `experimental=<rule>,…|all`, parts separated by
 * `;`. A malformed directive is itself reported (BuildKit refuses the build with it).
 */

export interface CheckConfig {
  skip: Set<string>;
  skipAll: boolean;
  /** Warnings fail the build. */
  error: boolean;
  experimental: Set<string>;
  experimentalAll: boolean;
}

const GO_BOOLEANS: Record<string, boolean> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false
};

export function parseCheckDirective(value: string | undefined): CheckConfig | { invalid: string } {
  const config: CheckConfig = {
    skip: new Set(),
    skipAll: false,
    error: false,
    experimental: new Set(),
    experimentalAll: false
  };
  const text = (value ?? '').trim();
  if (text === '') return config;
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) return { invalid: `invalid check option "${part}"` };
    const key = part.slice(0, eq).trim();
    const v = part.slice(eq + 1).trim();
    const list = () => v.split(',').map((rule) => rule.trim());
    if (key === 'skip') {
      if (v === 'all') config.skipAll = true;
      else for (const rule of list()) config.skip.add(rule);
    } else if (key === 'experimental') {
      if (v === 'all') config.experimentalAll = true;
      else for (const rule of list()) config.experimental.add(rule);
    } else if (key === 'error') {
      const parsed = GO_BOOLEANS[v];
      if (parsed === undefined) return { invalid: `failed to parse check option "${part}"` };
      config.error = parsed;
    } else {
      return { invalid: `invalid check option "${key}"` };
    }
  }
  return config;
}
