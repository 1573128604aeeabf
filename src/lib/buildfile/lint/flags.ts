/**
 * What BuildKit's instruction parser (frontend/dockerfile/instructions) refuses after the
 * syntax parse: unknown instructions, unknown flags (with BuildKit's "did you mean" from the
 * flags that instruction has), duplicate flags, flags missing their value, non-boolean values
 * on boolean flags, and RUN's `--mount` (types and the options each takes), `--network` and
 * `--security` values. Messages are BuildKit's.
 */

import type { Flag, Instruction, ParseResult } from '../types.ts';
import { suggest } from './suggest.ts';
import type { Finding } from './finding.ts';

export type FlagKind = 'bool' | 'string' | 'strings';

const FLAGS: Record<string, Record<string, FlagKind>> = {
  add: {
    chown: 'string',
    chmod: 'string',
    link: 'bool',
    'keep-git-dir': 'bool',
    checksum: 'string',
    exclude: 'strings',
    unpack: 'bool'
  },
  copy: {
    chown: 'string',
    chmod: 'string',
    from: 'string',
    link: 'bool',
    parents: 'bool',
    exclude: 'strings'
  },
  from: { platform: 'string' },
  run: { mount: 'strings', network: 'string', security: 'string' },
  healthcheck: {
    interval: 'string',
    timeout: 'string',
    'start-period': 'string',
    'start-interval': 'string',
    retries: 'string'
  }
};

/** Instructions BuildKit knows; the rest are refused with "unknown instruction". */
export const INSTRUCTIONS = [
  'add',
  'arg',
  'cmd',
  'copy',
  'entrypoint',
  'env',
  'expose',
  'from',
  'healthcheck',
  'label',
  'maintainer',
  'onbuild',
  'run',
  'shell',
  'stopsignal',
  'user',
  'volume',
  'workdir'
];
const KNOWN = new Set(INSTRUCTIONS);

/** BuildKit never parses the flags of these: a flag there is silently ignored. */
const FLAGS_IGNORED = new Set(['arg', 'stopsignal']);

export const MOUNT_TYPES = ['bind', 'cache', 'tmpfs', 'secret', 'ssh'];
export const MOUNT_KEYS = [
  'type',
  'from',
  'source',
  'target',
  'readonly',
  'id',
  'sharing',
  'required',
  'mode',
  'uid',
  'gid',
  'src',
  'dst',
  'ro',
  'rw',
  'readwrite',
  'destination',
  'size',
  'env'
];
export const SHARING = ['shared', 'private', 'locked'];
export const NETWORKS = ['default', 'none', 'host'];
export const SECURITY = ['sandbox', 'insecure'];
const GO_BOOL = /^(1|t|T|TRUE|true|True|0|f|F|FALSE|false|False)$/;

export function flagsAvailable(instruction: string): Record<string, FlagKind> {
  return FLAGS[instruction] ?? {};
}

export function checkInstructions(parse: ParseResult, labs: boolean): Finding[] {
  const findings: Finding[] = [];
  const visit = (instruction: Instruction) => {
    if (!KNOWN.has(instruction.name)) {
      const match = suggest(
        instruction.keyword,
        INSTRUCTIONS.map((i) => i.toUpperCase()),
        false
      );
      findings.push({
        rule: 'UnknownInstruction',
        severity: 'error',
        message:
          `unknown instruction: ${instruction.keyword}` +
          (match ? ` (did you mean ${match}?)` : ''),
        range: instruction.keywordRange,
        hint: `Build files know ${INSTRUCTIONS.map((i) => i.toUpperCase()).join(', ')}.`,
        fix: match
          ? { title: `Change to ${match}`, edits: [{ ...instruction.keywordRange, text: match }] }
          : undefined
      });
      return;
    }
    findings.push(...checkFlags(instruction, labs));
    if (instruction.trigger) visit(instruction.trigger);
  };
  for (const instruction of parse.instructions) {
    const before = findings.length;
    visit(instruction);
    // A trigger only runs in builds FROM this image: this build still passes.
    if (instruction.trigger) {
      for (const finding of findings.slice(before)) {
        finding.severity = 'warning';
        finding.hint = 'BuildKit refuses it when an image is built FROM this one.';
      }
    }
  }
  return findings;
}

function checkFlags(instruction: Instruction, labs: boolean): Finding[] {
  const findings: Finding[] = [];
  const error = (flag: Flag, message: string, extra: Partial<Finding> = {}) =>
    findings.push({ rule: 'InvalidFlag', severity: 'error', message, range: flag.range, ...extra });
  const name = instruction.name;
  // HEALTHCHECK NONE takes no flags; BuildKit does not look at them.
  if (name === 'healthcheck' && instruction.args[0]?.value.toUpperCase() === 'NONE') return [];
  const available: Record<string, FlagKind> = { ...flagsAvailable(name) };
  if (labs && name === 'run') available.device = 'strings';
  const used = new Set<string>();
  for (const flag of instruction.flags) {
    if (flag.value === '--') break;
    const flagName = `--${flag.name}`;
    const kind = available[flag.name];
    if (FLAGS_IGNORED.has(name)) {
      findings.push({
        rule: 'IgnoredFlag',
        severity: 'warning',
        message: `${instruction.keyword.toUpperCase()} takes no flags: ${flagName} is ignored`,
        range: flag.range
      });
      continue;
    }
    if (!kind) {
      const match = suggest(flag.name, Object.keys(available));
      const known = Object.keys(available).map((f) => `--${f}`);
      error(flag, `unknown flag: ${flagName}` + (match ? ` (did you mean ${match}?)` : ''), {
        rule: 'UnknownFlag',
        hint: known.length
          ? `${instruction.keyword.toUpperCase()} takes ${known.join(', ')}.`
          : `${instruction.keyword.toUpperCase()} takes no flags.`,
        fix: match
          ? {
              title: `Change to --${match}`,
              edits: [
                {
                  ...flag.range,
                  endColumn: flag.range.column + flagName.length,
                  text: `--${match}`
                }
              ]
            }
          : undefined
      });
      continue;
    }
    if (used.has(flag.name) && kind !== 'strings') {
      error(flag, `duplicate flag specified: ${flagName}`);
      continue;
    }
    used.add(flag.name);
    const value = flag.flagValue;
    if (kind === 'bool') {
      if (value === '') error(flag, `missing a value on flag: ${flagName}`);
      else if (value !== null && !['true', 'false'].includes(value.toLowerCase())) {
        error(flag, `expecting boolean value for flag ${flagName}, not: ${value}`);
      }
      continue;
    }
    if (value === null) {
      error(flag, `missing a value on flag: ${flagName}`);
      continue;
    }
    if (name === 'run' && flag.name === 'mount') {
      const problem = checkMount(value);
      if (problem) error(flag, problem);
    } else if (name === 'run' && flag.name === 'network' && !value.includes('$')) {
      if (!NETWORKS.includes(value))
        error(flag, `unsupported network mode ${JSON.stringify(value)}`);
    } else if (name === 'run' && flag.name === 'security' && !value.includes('$')) {
      if (!SECURITY.includes(value))
        error(flag, `unsupported security mode ${JSON.stringify(value)}`);
    }
  }
  return findings;
}

/** A `--mount` value as BuildKit's parseMount and validateMount judge it (variables skipped). */
export function checkMount(value: string): string | undefined {
  const fields = splitCsv(value);
  if (fields === undefined) return 'failed to parse csv mounts';
  let type = 'bind';
  const keys = new Map<string, string>();
  for (const field of fields) {
    const eq = field.indexOf('=');
    const key = (eq < 0 ? field : field.slice(0, eq)).toLowerCase();
    const v = eq < 0 ? undefined : field.slice(eq + 1);
    if (v === undefined) {
      if (['readonly', 'ro', 'readwrite', 'rw'].includes(key)) continue;
      if (key === 'required') {
        if (type === 'secret' || type === 'ssh') continue;
        return `unexpected key '${key}' for mount type '${type}'`;
      }
      return `invalid field '${field}' must be a key=value pair`;
    }
    if (!MOUNT_KEYS.includes(key)) {
      const match = suggest(key, MOUNT_KEYS);
      return `unexpected key '${key}' in '${field}'` + (match ? ` (did you mean ${match}?)` : '');
    }
    if (v.includes('$')) {
      if (key === 'from')
        return `'${key}' doesn't support variable expansion, define alias stage instead`;
      keys.set(key, v);
      continue;
    }
    keys.set(key, v);
    switch (key) {
      case 'type':
        type = v.toLowerCase();
        if (!MOUNT_TYPES.includes(type)) {
          const match = suggest(v, MOUNT_TYPES);
          return (
            `unsupported mount type ${JSON.stringify(v)}` +
            (match ? ` (did you mean ${match}?)` : '')
          );
        }
        break;
      case 'readonly':
      case 'ro':
      case 'readwrite':
      case 'rw':
        if (!GO_BOOL.test(v)) return `invalid value for ${key}: ${v}`;
        break;
      case 'required':
        if (type !== 'secret' && type !== 'ssh')
          return `unexpected key '${key}' for mount type '${type}'`;
        if (!GO_BOOL.test(v)) return `invalid value for ${key}: ${v}`;
        break;
      case 'size':
        if (type !== 'tmpfs') return `unexpected key '${key}' for mount type '${type}'`;
        if (!/^\d+(\.\d+)?\s*([kmgtp]i?b?|b)?$/i.test(v)) return `invalid value for ${key}: ${v}`;
        break;
      case 'env':
        if (type !== 'secret') return `unexpected key '${key}' for mount type '${type}'`;
        break;
      case 'sharing':
        if (!SHARING.includes(v.toLowerCase())) {
          const match = suggest(v, SHARING);
          return (
            `unsupported sharing value ${JSON.stringify(v)}` +
            (match ? ` (did you mean ${match}?)` : '')
          );
        }
        break;
      case 'mode':
        if (!/^[0-7]+$/.test(v) || Number.parseInt(v, 8) > 0xffffffff)
          return `invalid value ${v} for mode`;
        break;
      case 'uid':
      case 'gid':
        if (!/^\d+$/.test(v) || Number(v) > 0xffffffff) return `invalid value ${v} for ${key}`;
        break;
    }
  }
  const fileInfoAllowed = ['secret', 'ssh', 'cache'].includes(type);
  for (const key of ['mode', 'uid', 'gid']) {
    if (!fileInfoAllowed && keys.has(key))
      return `${key} not allowed for ${JSON.stringify(type)} type mounts`;
  }
  const source = keys.get('source') ?? keys.get('src');
  const target = keys.get('target') ?? keys.get('dst') ?? keys.get('destination');
  if (type === 'secret') {
    if (keys.has('from')) return 'secret mount should not have a from';
    if (keys.has('sharing')) return 'secret mount should not define sharing';
    if (!source && !target && !keys.get('id') && !keys.get('env')) {
      return 'invalid secret mount. one of source, target required';
    }
    if (source && keys.get('id')) return "both source and id can't be set";
  }
  if (keys.has('sharing') && type !== 'cache') return `invalid cache sharing set for ${type} mount`;
  return undefined;
}

/** One CSV record as Go's encoding/csv reads it (double-quoted fields, `""` for a quote). */
function splitCsv(value: string): string[] | undefined {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (value[i] === '"') {
      i++;
      for (;;) {
        if (i >= value.length) return undefined;
        if (value[i] === '"') {
          if (value[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += value[i++];
      }
      if (i < value.length && value[i] !== ',') return undefined;
    } else {
      const comma = value.indexOf(',', i);
      const end = comma < 0 ? value.length : comma;
      field = value.slice(i, end);
      if (field.includes('"')) return undefined;
      i = end;
    }
    fields.push(field);
    if (i >= value.length) return fields;
    i++; // the comma
  }
}
