import {
  skillDefinitionSchema,
  type SkillDefinition,
  type SkillDefinitionInput
} from '$lib/contracts/skills';
import { schemaProblem } from '../forms/schema-form';

/** The definition form's values, as typed (numbers and lists as text). */
export interface DefinitionDraft {
  kind: 'container' | 'http';
  id: string;
  name: string;
  description: string;
  timeoutMs: string;
  paramsSchema: string;
  engine: string;
  image: string;
  /** One argument a line. */
  command: string;
  memoryMb: string;
  cpus: string;
  network: boolean;
  outputMaxBytes: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** One `Name: value` a line. */
  headers: string;
  body: string;
  /** One host a line. */
  allowHosts: string;
  allowPrivate: boolean;
  responseMaxBytes: string;
}

const EMPTY_SCHEMA = '{\n  "type": "object",\n  "properties": {}\n}';

export function draftFrom(d: SkillDefinition | null): DefinitionDraft {
  const draft: DefinitionDraft = {
    kind: d?.kind ?? 'container',
    id: d?.id ?? '',
    name: d?.name ?? '',
    description: d?.description ?? '',
    timeoutMs: String(d?.timeoutMs ?? 30_000),
    paramsSchema: d ? JSON.stringify(d.paramsSchema, null, 2) : EMPTY_SCHEMA,
    engine: 'local',
    image: '',
    command: '',
    memoryMb: '256',
    cpus: '1',
    network: false,
    outputMaxBytes: String(1024 * 1024),
    method: 'POST',
    url: '',
    headers: '',
    body: '',
    allowHosts: '',
    allowPrivate: false,
    responseMaxBytes: String(1024 * 1024)
  };
  if (d?.kind === 'container')
    Object.assign(draft, {
      engine: d.engine,
      image: d.image,
      command: (d.command ?? []).join('\n'),
      memoryMb: String(d.memoryMb),
      cpus: String(d.cpus),
      network: d.network,
      outputMaxBytes: String(d.outputMaxBytes)
    });
  if (d?.kind === 'http')
    Object.assign(draft, {
      method: d.method,
      url: d.url,
      headers: Object.entries(d.headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n'),
      body: d.body ?? '',
      allowHosts: d.allowHosts.join('\n'),
      allowPrivate: d.allowPrivate,
      responseMaxBytes: String(d.responseMaxBytes)
    });
  return draft;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
/** Text to a number; left as text when it is not one, so the schema names the field. */
const number = (text: string): number | string =>
  text.trim() !== '' && !Number.isNaN(Number(text)) ? Number(text) : text;

/** The definition a draft stands for, checked by the contract; errors keyed by field. */
export function definitionFrom(draft: DefinitionDraft): {
  definition?: SkillDefinitionInput;
  errors: Record<string, string>;
} {
  const errors: Record<string, string> = {};
  let paramsSchema: unknown = { type: 'object' };
  try {
    paramsSchema = JSON.parse(draft.paramsSchema || '{"type":"object"}');
    const problem = schemaProblem(paramsSchema);
    if (problem) errors.paramsSchema = problem;
  } catch (err) {
    errors.paramsSchema = `Not valid JSON: ${(err as Error).message}`;
  }
  const common = {
    id: draft.id.trim(),
    name: draft.name.trim() || undefined,
    description: draft.description.trim(),
    timeoutMs: number(draft.timeoutMs),
    paramsSchema
  };
  const headers: Record<string, string> = {};
  for (const line of lines(draft.headers)) {
    const colon = line.indexOf(':');
    if (colon <= 0) errors.headers = `Write "Name: value": ${line}`;
    else headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  const raw =
    draft.kind === 'container'
      ? {
          ...common,
          kind: 'container',
          engine: draft.engine.trim() || 'local',
          image: draft.image.trim(),
          command: draft.command.trim() ? draft.command.split('\n') : undefined,
          memoryMb: number(draft.memoryMb),
          cpus: number(draft.cpus),
          network: draft.network,
          outputMaxBytes: number(draft.outputMaxBytes)
        }
      : {
          ...common,
          kind: 'http',
          method: draft.method,
          url: draft.url.trim(),
          headers,
          body: draft.body === '' ? undefined : draft.body,
          allowHosts: lines(draft.allowHosts),
          allowPrivate: draft.allowPrivate,
          responseMaxBytes: number(draft.responseMaxBytes)
        };
  const parsed = skillDefinitionSchema.safeParse(raw);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      errors[key] ??= issue.message.replace(/^Invalid input: /, '');
    }
  if (!parsed.success || Object.keys(errors).length) return { errors };
  return { definition: parsed.data, errors };
}
