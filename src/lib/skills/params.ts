import { z } from 'zod';

/**
 * A skill's params checked against its JSON Schema, the same way on the server and in the
 * browser: zod's own JSON Schema reader, which compiles nothing with eval (the console's CSP
 * has no unsafe-eval).
 */
export type ParamsCheck =
  { ok: true; params: Record<string, unknown> } | { ok: false; message: string };

const compiled = new WeakMap<object, z.ZodType>();

/** The zod schema of a JSON Schema; throws (with zod's words) on one it cannot read. */
export function compileParamsSchema(schema: Record<string, unknown>): z.ZodType {
  let out = compiled.get(schema);
  if (!out) {
    out = z.fromJSONSchema(schema);
    compiled.set(schema, out);
  }
  return out;
}

/** Why a JSON Schema cannot check params, or null when it can. */
export function paramsSchemaProblem(schema: Record<string, unknown>): string | null {
  try {
    compileParamsSchema(schema);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Each issue as `params.<field>: <message>`, so the caller knows which field is wrong. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], root = 'params'): string {
  return issues
    .map(
      (i) => `${[root, ...i.path.map(String)].filter(Boolean).join('.') || '(root)'}: ${i.message}`
    )
    .join('; ');
}

export function checkParams(schema: Record<string, unknown>, params: unknown): ParamsCheck {
  const parsed = compileParamsSchema(schema).safeParse(params);
  if (parsed.success) return { ok: true, params: parsed.data as Record<string, unknown> };
  return { ok: false, message: describeIssues(parsed.error.issues) };
}
