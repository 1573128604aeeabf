/**
 * What to offer at a cursor in a build file, from the parse and the model: instructions at the
 * start of an instruction (not on continuation lines or in heredoc bodies), the instruction's
 * flags after `--`, flag values after `--flag=` (RUN --mount's keys and types, --network,
 * --security, COPY --from's stages …), the variables in scope after `$` or `${`, base images
 * and earlier stages after FROM. The lists of instructions, flags and values are the linter's.
 */

import {
  flagsAvailable,
  INSTRUCTIONS,
  MOUNT_KEYS,
  MOUNT_TYPES,
  NETWORKS,
  SECURITY,
  SHARING
} from '../lint/flags.ts';
import type { BuildFileModel } from '../model.ts';
import type { Instruction, ParseResult } from '../types.ts';
import { FLAG_DOCS, INSTRUCTION_DOCS, MOUNT_TYPE_DOCS } from './docs.ts';
import { LineIndex } from './positions.ts';

export type ItemType = 'keyword' | 'property' | 'enum' | 'variable' | 'class' | 'namespace';

export interface CompletionItem {
  label: string;
  type: ItemType;
  detail?: string;
  info?: string;
  /** The text inserted when it differs from the label. */
  apply?: string;
}

export type ContextKind = 'instruction' | 'flag' | 'flag-value' | 'variable' | 'image' | 'stage-as';

export interface CompletionResult {
  kind: ContextKind;
  /** The offset where the word being completed starts (the items replace from there). */
  from: number;
  items: CompletionItem[];
}

export interface CompletionSources {
  parse: ParseResult;
  /** Built only when the context needs it (stages, variables): most keys do not. */
  model: () => BuildFileModel;
  /** Images the engine knows (`alpine:3.20` …), offered after FROM. */
  baseImages?: readonly string[];
}

/** Where a cursor is, before deciding what to offer. */
export type CompletionContext =
  | { kind: 'instruction'; from: number; instruction?: Instruction }
  | { kind: 'flag'; from: number; keyword: string; instruction: Instruction }
  | {
      kind: 'flag-value';
      from: number;
      keyword: string;
      flag: string;
      /** For --mount: the CSV key the value belongs to (`type`, `from` …), or null for a key. */
      mountKey?: string | null;
      instruction: Instruction;
    }
  | { kind: 'variable'; from: number; brace: boolean; instruction: Instruction }
  | { kind: 'image'; from: number; instruction: Instruction }
  | { kind: 'stage-as'; from: number; instruction: Instruction };

export function completionContext(
  source: string,
  offset: number,
  parsed: ParseResult,
  index: LineIndex = new LineIndex(source)
): CompletionContext | null {
  const { line } = index.position(offset);
  const lineStart = index.offset(line, 1);
  const before = source.slice(lineStart, offset);
  if (/^\s*#/.test(before)) return null;
  const instruction = parsed.instructions.find(
    (i) => i.range.line <= line && line <= i.range.endLine
  );
  if (!instruction) {
    return /^\s*[A-Za-z]*$/.test(before)
      ? { kind: 'instruction', from: offset - /[A-Za-z]*$/.exec(before)![0].length }
      : null;
  }
  const body = instruction.heredocs.find(
    (h) => h.bodyRange.line <= line && line <= h.bodyRange.endLine
  );
  if (body) return variableContext(before, offset, instruction);

  const start = index.offset(instruction.keywordRange.line, instruction.keywordRange.column);
  if (offset < start) return null;
  const prefix = logicalPrefix(source.slice(start, offset), parsed.escapeToken);
  let words = prefix.split(/[ \t]+/);
  let target = instruction;
  // ONBUILD's trigger is an instruction of its own.
  if (instruction.name === 'onbuild' && words.length > 1) {
    words = words.slice(1);
    target = instruction.trigger ?? instruction;
  }
  const current = words[words.length - 1]!;
  if (words.length === 1) {
    return /^[A-Za-z]*$/.test(current)
      ? { kind: 'instruction', from: offset - current.length, instruction }
      : null;
  }
  const keyword = words[0]!.toLowerCase();
  const variable = variableContext(current, offset, target);
  if (variable) return variable;
  const previous = words.slice(1, -1);
  const inFlags = previous.every((w) => w.startsWith('--'));
  if (inFlags && current.startsWith('--')) {
    const eq = current.indexOf('=');
    if (eq < 0)
      return { kind: 'flag', from: offset - current.length, keyword, instruction: target };
    const flag = current.slice(2, eq);
    const value = current.slice(eq + 1);
    if (keyword === 'run' && flag === 'mount') {
      const field = value.slice(value.lastIndexOf(',') + 1);
      const fieldEq = field.indexOf('=');
      return fieldEq < 0
        ? {
            kind: 'flag-value',
            from: offset - field.length,
            keyword,
            flag,
            mountKey: null,
            instruction: target
          }
        : {
            kind: 'flag-value',
            from: offset - field.length + fieldEq + 1,
            keyword,
            flag,
            mountKey: field.slice(0, fieldEq).toLowerCase(),
            instruction: target
          };
    }
    return { kind: 'flag-value', from: offset - value.length, keyword, flag, instruction: target };
  }
  if (keyword === 'from') {
    const args = previous.filter((w) => !w.startsWith('--'));
    if (args.length === 0 && inFlags) {
      return { kind: 'image', from: offset - current.length, instruction: target };
    }
    if (args.length === 1)
      return { kind: 'stage-as', from: offset - current.length, instruction: target };
  }
  return null;
}

function variableContext(
  text: string,
  offset: number,
  instruction: Instruction
): CompletionContext | null {
  const match = /\$(\{?)([A-Za-z0-9_]*)$/.exec(text);
  if (!match) return null;
  return {
    kind: 'variable',
    from: offset - match[2]!.length,
    brace: match[1] === '{',
    instruction
  };
}

/** The instruction up to the cursor as one line: continuations joined, comment lines dropped. */
function logicalPrefix(text: string, escape: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (i > 0 && /^\s*#/.test(line)) return;
    const last = i === lines.length - 1;
    out.push(!last && line.trimEnd().endsWith(escape) ? line.trimEnd().slice(0, -1) : line);
  });
  return out.join(' ').replace(/^\s+/, '');
}

export function completeBuildFile(
  source: string,
  offset: number,
  sources: CompletionSources,
  index: LineIndex = new LineIndex(source)
): CompletionResult | null {
  const context = completionContext(source, offset, sources.parse, index);
  if (!context) return null;
  const items = itemsFor(context, sources, offset, source);
  return items.length ? { kind: context.kind, from: context.from, items } : null;
}

const INSTRUCTION_ITEMS: CompletionItem[] = INSTRUCTIONS.map((name) => ({
  label: name.toUpperCase(),
  type: 'keyword',
  detail: INSTRUCTION_DOCS[name]?.syntax,
  info: INSTRUCTION_DOCS[name]?.summary,
  apply: `${name.toUpperCase()} `
}));

const COMMON_CACHE_TARGETS = [
  '/root/.cache',
  '/var/cache/apt',
  '/var/lib/apt',
  '/root/.npm',
  '/go/pkg/mod',
  '/root/.cache/pip'
];
const CHMOD = ['755', '644', '0755', '0644', 'u+x'];
const DURATIONS = ['5s', '10s', '30s', '1m'];
const BOOLS = ['true', 'false'];
const PLATFORMS = ['$BUILDPLATFORM', '$TARGETPLATFORM', 'linux/amd64', 'linux/arm64'];

function itemsFor(
  context: CompletionContext,
  { model: modelOf, baseImages = [] }: CompletionSources,
  offset: number,
  source: string
): CompletionItem[] {
  const model = () => modelOf();
  const values = (list: readonly string[], detail?: string): CompletionItem[] =>
    list.map((label) => ({ label, type: 'enum', detail }));
  switch (context.kind) {
    case 'instruction':
      return INSTRUCTION_ITEMS;
    case 'flag': {
      const flags = flagsAvailable(context.keyword);
      return Object.entries(flags).map(([name, kind]) => ({
        label: `--${name}`,
        type: 'property',
        detail: FLAG_DOCS[context.keyword]?.[name]?.syntax,
        info: FLAG_DOCS[context.keyword]?.[name]?.summary,
        apply: kind === 'bool' ? `--${name}` : `--${name}=`
      }));
    }
    case 'flag-value':
      return flagValues(context, model(), values);
    case 'variable': {
      const built = model();
      const scope = built.scopes.get(context.instruction);
      const names = scope ? [...scope.values()] : built.globalArgs;
      const closed = source[offset] === '}';
      return names.map((v) => ({
        label: v.name,
        type: 'variable',
        detail: `${v.kind.toUpperCase()}${v.global ? ' (global)' : ''}${v.value !== undefined ? ` = ${v.value}` : ''}`,
        apply: context.brace && !closed ? `${v.name}}` : v.name
      }));
    }
    case 'image': {
      const stages = earlierStages(model(), context.instruction).map((s): CompletionItem => ({
        label: s.name!,
        type: 'class',
        detail: `stage ${s.index}`
      }));
      return [
        ...baseImages.map((label): CompletionItem => ({
          label,
          type: 'namespace',
          detail: 'image'
        })),
        { label: 'scratch', type: 'namespace', detail: 'empty base' },
        ...stages
      ];
    }
    case 'stage-as':
      return [{ label: 'AS', type: 'keyword', detail: 'AS <name>: names the stage', apply: 'AS ' }];
  }
}

function flagValues(
  context: Extract<CompletionContext, { kind: 'flag-value' }>,
  model: BuildFileModel,
  values: (list: readonly string[], detail?: string) => CompletionItem[]
): CompletionItem[] {
  const stages = () =>
    earlierStages(model, context.instruction).map((s): CompletionItem => ({
      label: s.name!,
      type: 'class',
      detail: `stage ${s.index}, FROM ${s.base}`
    }));
  if (context.keyword === 'run' && context.flag === 'mount') {
    switch (context.mountKey) {
      case null:
        return MOUNT_KEYS.map((key) => ({ label: key, type: 'property', apply: `${key}=` }));
      case 'type':
        return MOUNT_TYPES.map((type) => ({
          label: type,
          type: 'enum',
          detail: MOUNT_TYPE_DOCS[type]?.syntax,
          info: MOUNT_TYPE_DOCS[type]?.summary
        }));
      case 'sharing':
        return values(SHARING);
      case 'from':
        return stages();
      case 'target':
      case 'dst':
      case 'destination':
        return values(COMMON_CACHE_TARGETS, 'common cache directory');
      case 'readonly':
      case 'ro':
      case 'rw':
      case 'readwrite':
      case 'required':
        return values(BOOLS);
      default:
        return [];
    }
  }
  const kind = flagsAvailable(context.keyword)[context.flag];
  if (kind === 'bool') return values(BOOLS);
  switch (`${context.keyword} ${context.flag}`) {
    case 'run network':
      return values(NETWORKS);
    case 'run security':
      return values(SECURITY);
    case 'copy from':
      return stages();
    case 'copy chmod':
    case 'add chmod':
      return values(CHMOD);
    case 'from platform':
      return values(PLATFORMS);
  }
  if (context.keyword === 'healthcheck' && context.flag !== 'retries') return values(DURATIONS);
  return [];
}

/** Named stages before the instruction's own (a stage may only use earlier ones). */
function earlierStages(model: BuildFileModel, instruction: Instruction) {
  const own = model.stages.findLast((s) => s.from.range.line <= instruction.range.line);
  return model.stages.filter((s) => s.name && s.index < (own?.index ?? 0));
}
