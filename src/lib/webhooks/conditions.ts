/**
 * A mapping's conditions as the form edits them: one `reference = value` per line. A value that
 * parses as JSON is that value (`3`, `true`, `"x"`, `{…}`); anything else is the text itself.
 */
export function parseConditions(text: string): {
  match: Record<string, unknown>;
  problems: string[];
} {
  const match: Record<string, unknown> = {};
  const problems: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const eq = line.indexOf('=');
    if (eq < 1) {
      problems.push(`line ${i + 1}: write reference = value`);
      return;
    }
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    match[key] = parseValue(value);
  });
  return { match, problems };
}

function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function formatConditions(match: Record<string, unknown>): string {
  return Object.entries(match)
    .map(([key, value]) => `${key} = ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}
