/**
 * BuildKit's own build checks (`docker build --check`, frontend/dockerfile/linter), with its rule
 * names and messages, each fired where BuildKit's instruction parser and dockerfile2llb fire it:
 * casing and stage-name checks over the parse, variable checks over the model's scopes (what
 * BuildKit expands: not RUN, CMD, ENTRYPOINT or HEALTHCHECK, which the shell expands), and
 * image-config checks (SHELL, WORKDIR, CMD …) along each stage's FROM chain.
 * Not here: InvalidBaseImagePlatform (needs the pulled image).
 */

import { expand } from '../expand.ts';
import type { BuildFileModel, Scope, Stage } from '../model.ts';
import type { Instruction, Range, Token } from '../types.ts';
import type { Finding } from './finding.ts';
import { parseImageReference } from './reference.ts';
import { suggest } from './suggest.ts';

export const BUILDKIT_RULES = {
  StageNameCasing: 'stage-name-casing',
  FromAsCasing: 'from-as-casing',
  NoEmptyContinuation: 'no-empty-continuation',
  ConsistentInstructionCasing: 'consistent-instruction-casing',
  DuplicateStageName: 'duplicate-stage-name',
  ReservedStageName: 'reserved-stage-name',
  JSONArgsRecommended: 'json-args-recommended',
  MaintainerDeprecated: 'maintainer-deprecated',
  UndefinedArgInFrom: 'undefined-arg-in-from',
  WorkdirRelativePath: 'workdir-relative-path',
  UndefinedVar: 'undefined-var',
  MultipleInstructionsDisallowed: 'multiple-instructions-disallowed',
  LegacyKeyValueFormat: 'legacy-key-value-format',
  RedundantTargetPlatform: 'redundant-target-platform',
  SecretsUsedInArgOrEnv: 'secrets-used-in-arg-or-env',
  InvalidDefaultArgInFrom: 'invalid-default-arg-in-from',
  FromPlatformFlagConstDisallowed: 'from-platform-flag-const-disallowed',
  CopyIgnoredFile: 'copy-ignored-file',
  InvalidDefinitionDescription: 'invalid-definition-description',
  ExposeProtoCasing: 'expose-proto-casing',
  ExposeInvalidFormat: 'expose-invalid-format'
} as const;

/** Off unless `# check=experimental=<rule>|all` turns them on, as in BuildKit. */
export const EXPERIMENTAL_RULES = new Set(['CopyIgnoredFile', 'InvalidDefinitionDescription']);

export interface CheckOptions {
  /** Environment variable names of external base images (from the engine), by image as written. */
  imageEnv?: (image: string) => readonly string[] | undefined;
  /** The global ARG scope with defaults only (no build arguments), for InvalidDefaultArgInFrom. */
  defaultsModel: BuildFileModel;
}

const SECRET =
  /(?:_|^)(?:apikey|auth|credential|credentials|key|password|pword|passwd|secret|token)(?:_|$)/i;
const SECRET_ALLOWED = /(?:_|^)(?:public)(?:_|$)/i;
const RESERVED_STAGE_NAMES = new Set(['context', 'scratch']);
const KNOWN_OS = [
  'linux',
  'windows',
  'darwin',
  'freebsd',
  'netbsd',
  'openbsd',
  'solaris',
  'illumos',
  'aix',
  'plan9',
  'android',
  'ios',
  'js',
  'wasip1'
];
const EMPTY_SCOPE: Scope = new Map();
const isSelfConsistent = (s: string) => s === s.toLowerCase() || s === s.toUpperCase();

export function buildkitChecks(model: BuildFileModel, options: CheckOptions): Finding[] {
  const findings: Finding[] = [];
  const add = (
    rule: keyof typeof BUILDKIT_RULES,
    message: string,
    range: Range,
    extra: Partial<Finding> = {}
  ) => findings.push({ rule, severity: 'warning', message, range, ...extra });
  const { parse, stages } = model;

  // BuildKit warns once per instruction, at the instruction (the parser's warning).
  for (const instruction of parse.instructions) {
    const empty = instruction.emptyContinuationLines;
    if (empty.length === 0) continue;
    add('NoEmptyContinuation', 'Empty continuation line', instruction.range, {
      hint: 'Remove the empty lines inside the instruction.',
      fix: {
        title: 'Remove the empty lines',
        edits: empty.map((line) => ({ line, column: 1, endLine: line + 1, endColumn: 1, text: '' }))
      }
    });
  }

  // Parse-time checks (BuildKit's ParseInstructionWithLinter), over every instruction.
  for (const instruction of parse.instructions) {
    if (instruction.name === 'maintainer') {
      const author = instruction.args[0]?.value ?? '';
      add(
        'MaintainerDeprecated',
        'Maintainer instruction is deprecated in favor of using label',
        instruction.range,
        {
          hint: 'Use LABEL org.opencontainers.image.authors="…".',
          fix: /["\\\n]/.test(author)
            ? undefined
            : {
                title: 'Replace with an authors label',
                edits: [
                  {
                    ...instruction.range,
                    text: `LABEL org.opencontainers.image.authors="${author}"`
                  }
                ]
              }
        }
      );
    }
    if (instruction.name === 'from') fromChecks(instruction, add);
    if (instruction.name === 'from' || instruction.name === 'arg')
      definitionDescription(instruction, add);
  }

  stageNameChecks(stages, add);
  casingCheck(stages, add);
  fromArgChecks(model, options, add);

  // Dispatch-time checks along each stage, inheriting image config from the stage it is FROM.
  const shellSet: boolean[] = [];
  const workdirSet: boolean[] = [];
  for (const stage of stages) {
    const base = stage.baseStage;
    let shell = base !== undefined ? shellSet[base]! : false;
    let workdir = base !== undefined ? workdirSet[base]! : false;
    const last: Record<string, Instruction | undefined> = {};
    const known = knownImageEnv(model, stage, options);
    for (const instruction of stage.instructions) {
      const scope = model.scopes.get(instruction) ?? EMPTY_SCOPE;
      undefinedVars(instruction, scope, known, parse.escapeToken, add);
      switch (instruction.name) {
        case 'shell':
          shell = true;
          break;
        case 'cmd':
        case 'entrypoint':
        case 'healthcheck': {
          const previous = last[instruction.name];
          if (previous) {
            add(
              'MultipleInstructionsDisallowed',
              `Multiple ${instruction.keyword} instructions should not be used in the same stage because only the last one will be used`,
              previous.range,
              { hint: 'Remove the earlier one.' }
            );
          }
          last[instruction.name] = instruction;
          if (instruction.name !== 'healthcheck' && !instruction.json && !shell) {
            add(
              'JSONArgsRecommended',
              `JSON arguments recommended for ${instruction.keyword} to prevent unintended behavior related to OS signals`,
              instruction.range,
              {
                hint: `Write ${instruction.keyword.toUpperCase()} ["executable", "arg"], or set SHELL explicitly if a shell is wanted.`
              }
            );
          }
          break;
        }
        case 'workdir': {
          const path = expandValue(instruction.args[0], scope, parse.escapeToken);
          if (!workdir && path !== undefined && !path.startsWith('/')) {
            add(
              'WorkdirRelativePath',
              `Relative workdir ${JSON.stringify(path)} can have unexpected results if the base image changes`,
              instruction.range,
              {
                hint: 'Start the first WORKDIR of a stage with /.'
              }
            );
          }
          workdir = true;
          break;
        }
        case 'env':
        case 'label':
          keyValueChecks(instruction, add);
          break;
        case 'arg':
          for (const token of instruction.args)
            secretCheck('ARG', token.value.split('=')[0]!, instruction, add);
          break;
        case 'expose':
          exposeChecks(instruction, scope, parse.escapeToken, add);
          break;
      }
    }
    shellSet.push(shell);
    workdirSet.push(workdir);
  }
  return findings;
}

type Add = (
  rule: keyof typeof BUILDKIT_RULES,
  message: string,
  range: Range,
  extra?: Partial<Finding>
) => void;

function fromChecks(from: Instruction, add: Add): void {
  if (from.args.length !== 3) return;
  const [, as, name] = from.args as [Token, Token, Token];
  if (name.value !== name.value.toLowerCase()) {
    add('StageNameCasing', `Stage name '${name.value}' should be lowercase`, from.range, {
      hint: 'Stage names are matched case-insensitively; write them lowercase.',
      fix: {
        title: 'Lowercase the stage name',
        edits: [{ ...name.range, text: name.value.toLowerCase() }]
      }
    });
  }
  const keyword = from.keyword;
  const lower = keyword === keyword.toLowerCase();
  const upper = keyword === keyword.toUpperCase();
  if (!lower && !upper) return;
  const wanted = lower ? as.value.toLowerCase() : as.value.toUpperCase();
  if (as.value !== wanted) {
    add(
      'FromAsCasing',
      `'${as.value}' and '${keyword}' keywords' casing do not match`,
      from.range,
      {
        fix: { title: `Change to ${wanted}`, edits: [{ ...as.range, text: wanted }] }
      }
    );
  }
}

// A description comment directly above FROM … AS name / ARG name starts with that name.
function definitionDescription(instruction: Instruction, add: Add): void {
  const keys =
    instruction.name === 'from'
      ? instruction.args.length === 3
        ? [instruction.args[2]!.value.toLowerCase()]
        : []
      : instruction.args.map((a) => a.value.split('=')[0]!);
  const comment = instruction.comments[instruction.comments.length - 1];
  if (comment === undefined || keys.length === 0) return;
  if (keys.includes(comment.trimStart().split(' ')[0]!)) return;
  const example = keys.length > 1 ? '<arg_key>' : keys[0]!;
  const kind = instruction.name.toUpperCase();
  add(
    'InvalidDefinitionDescription',
    `Comment for ${kind} should follow the format: \`# ${example} <description>\``,
    instruction.range
  );
}

function stageNameChecks(stages: Stage[], add: Add): void {
  const seen = new Set<string>();
  for (const stage of stages) {
    if (!stage.name) continue;
    const name = stage.name.toLowerCase();
    if (RESERVED_STAGE_NAMES.has(name)) {
      add(
        'ReservedStageName',
        `Stage name should not use the same name as reserved stage ${JSON.stringify(name)}`,
        stage.from.range
      );
    }
    if (seen.has(name)) {
      add(
        'DuplicateStageName',
        `Duplicate stage name ${JSON.stringify(name)}, stage names should be unique`,
        stage.from.range
      );
    }
    seen.add(name);
  }
}

function casingCheck(stages: Stage[], add: Add): void {
  const all = stages.flatMap((s) => [s.from, ...s.instructions]);
  let lower = 0;
  let upper = 0;
  for (const i of all) {
    if (!isSelfConsistent(i.keyword)) continue;
    if (i.keyword === i.keyword.toLowerCase()) lower++;
    else upper++;
  }
  const majorityLower = lower > upper;
  for (const i of all) {
    const wanted = majorityLower ? i.keyword.toLowerCase() : i.keyword.toUpperCase();
    if (i.keyword === wanted) continue;
    add(
      'ConsistentInstructionCasing',
      `Command '${i.keyword}' should match the case of the command majority (${majorityLower ? 'lowercase' : 'uppercase'})`,
      i.keywordRange,
      { fix: { title: `Change to ${wanted}`, edits: [{ ...i.keywordRange, text: wanted }] } }
    );
  }
}

function fromArgChecks(model: BuildFileModel, options: CheckOptions, add: Add): void {
  const escape = model.parse.escapeToken;
  for (const stage of model.stages) {
    const scope = model.scopes.get(stage.from) ?? EMPTY_SCOPE;
    const keys = [...scope.keys()];
    const words: Token[] = [];
    if (stage.baseToken) words.push(stage.baseToken);
    const platform = stage.from.flags.find((f) => f.name === 'platform' && f.flagValue !== null);
    if (platform) words.push({ value: platform.flagValue!, range: platform.range });
    for (const word of words) {
      const result = expand(
        word.value,
        (n) => (scope.has(n) ? (scope.get(n)!.value ?? '') : undefined),
        escape
      );
      for (const name of result.unset) {
        const match = suggest(name, keys);
        add(
          'UndefinedArgInFrom',
          `FROM argument '${name}' is not declared` + (match ? ` (did you mean ${match}?)` : ''),
          stage.from.range,
          {
            hint: `Declare ARG ${name} before the first FROM.`
          }
        );
      }
    }
    if (platform?.flagValue!.includes('$')) {
      const result = expand(platform.flagValue!, (n) => scope.get(n)?.value, escape);
      if (
        result.used.length === 1 &&
        result.unset.length === 0 &&
        result.used[0] === 'TARGETPLATFORM'
      ) {
        add(
          'RedundantTargetPlatform',
          `Setting platform to predefined ${platform.flagValue} in FROM is redundant as this is the default behavior`,
          stage.from.range,
          {
            fix: {
              title: 'Remove --platform',
              edits: [{ ...platform.range, endColumn: platform.range.endColumn + 1, text: '' }]
            }
          }
        );
      }
    } else if (platform) {
      const [os = '', arch = 'amd64'] = platformParts(platform.flagValue!);
      const name = stage.name ?? '';
      if (os && !name.includes(os) && !name.includes(arch)) {
        add(
          'FromPlatformFlagConstDisallowed',
          `FROM --platform flag should not use constant value ${JSON.stringify(platform.flagValue)}`,
          stage.from.range,
          {
            hint: 'Use $BUILDPLATFORM or $TARGETPLATFORM, or name the stage after the platform.'
          }
        );
      }
    }
  }
  // With defaults only, every base must still be a valid image reference.
  const defaults = options.defaultsModel;
  for (const stage of defaults.stages) {
    if (!stage.baseToken) continue;
    const scope = defaults.scopes.get(stage.from) ?? EMPTY_SCOPE;
    const result = expand(stage.baseToken.value, (n) => scope.get(n)?.value, escape);
    if (result.error) return;
    if (!parseImageReference(result.value)) {
      add(
        'InvalidDefaultArgInFrom',
        `Default value for ARG ${stage.baseToken.value} results in empty or invalid base image name`,
        stage.from.range,
        {
          hint: 'Give the ARG a default that makes a valid image name.'
        }
      );
    }
  }
}

/** `linux/arm64` → [linux, arm64]; `linux` → [linux]; `arm64` → [linux, arm64]; else []. */
function platformParts(value: string): string[] {
  const parts = value.toLowerCase().split('/');
  if (parts.length >= 2) return parts;
  if (KNOWN_OS.includes(parts[0]!)) return [parts[0]!];
  return /^[a-z0-9_]+$/.test(parts[0]!) ? ['linux', parts[0]!] : [];
}

function keyValueChecks(instruction: Instruction, add: Add): void {
  for (const pair of instruction.pairs ?? []) {
    if (instruction.name === 'env') secretCheck('ENV', pair.key.value, instruction, add);
    if (pair.separator !== '') continue;
    const value = pair.value.value;
    const plain = !/["'\\`$]/.test(value);
    const text = /\s/.test(value) ? `"${value}"` : value;
    add(
      'LegacyKeyValueFormat',
      `"${instruction.keyword} key=value" should be used instead of legacy "${instruction.keyword} key value" format`,
      instruction.range,
      {
        fix: plain
          ? {
              title: 'Use key=value',
              edits: [
                {
                  ...pair.key.range,
                  endLine: pair.value.range.endLine,
                  endColumn: pair.value.range.endColumn,
                  text: `${pair.key.value}=${text}`
                }
              ]
            }
          : undefined
      }
    );
  }
}

function secretCheck(kind: 'ARG' | 'ENV', key: string, instruction: Instruction, add: Add): void {
  if (SECRET.test(key) && !SECRET_ALLOWED.test(key)) {
    add(
      'SecretsUsedInArgOrEnv',
      `Do not use ARG or ENV instructions for sensitive data (${kind} ${JSON.stringify(key)})`,
      instruction.range,
      {
        hint: 'Pass secrets with RUN --mount=type=secret; ARG and ENV values stay in the image history.'
      }
    );
  }
}

function exposeChecks(instruction: Instruction, scope: Scope, escape: string, add: Add): void {
  for (const token of instruction.args) {
    const value = expandValue(token, scope, escape) ?? token.value;
    for (const port of value.split(/\s+/).filter(Boolean)) {
      const parts = port.split(':');
      const container = parts[parts.length - 1]!;
      const proto = container.includes('/') ? container.slice(container.indexOf('/') + 1) : '';
      if (proto !== proto.toLowerCase()) {
        add(
          'ExposeProtoCasing',
          `Defined protocol '${port}' in EXPOSE instruction should be lowercase`,
          instruction.range,
          {
            fix:
              token.value === port
                ? {
                    title: 'Lowercase the protocol',
                    edits: [{ ...token.range, text: port.replace(/\/.*$/, (p) => p.toLowerCase()) }]
                  }
                : undefined
          }
        );
      }
      if (parts.length > 1) {
        add(
          'ExposeInvalidFormat',
          `EXPOSE instruction should not define an IP address or host-port mapping, found '${port}'`,
          instruction.range,
          {
            hint: 'EXPOSE names the container port only; map host ports when running the container.',
            fix:
              token.value === port
                ? { title: `Expose ${container}`, edits: [{ ...token.range, text: container }] }
                : undefined
          }
        );
      }
    }
  }
}

function expandValue(token: Token | undefined, scope: Scope, escape: string): string | undefined {
  if (!token) return undefined;
  const result = expand(token.value, (n) => scope.get(n)?.value, escape);
  return result.error ? undefined : result.value;
}

/** Names defined in a stage without a declaration: PATH, and the base image's environment when known. */
function knownImageEnv(model: BuildFileModel, stage: Stage, options: CheckOptions): Set<string> {
  const names = new Set(['PATH']);
  let root: Stage = stage;
  while (root.baseStage !== undefined) root = model.stages[root.baseStage]!;
  for (const name of options.imageEnv?.(root.base) ?? []) names.add(name);
  return names;
}

/** The words BuildKit expands before running an instruction, with variables it reports unset. */
function expandedWords(instruction: Instruction): Token[] {
  switch (instruction.name) {
    case 'run':
      return instruction.flags
        .filter((f) => f.name === 'mount' && f.flagValue !== null)
        .map((f) => ({ value: f.flagValue!, range: f.range }));
    case 'cmd':
    case 'entrypoint':
    case 'healthcheck':
    case 'shell':
    case 'onbuild':
    case 'from':
    case 'maintainer':
    case 'expose':
      return [];
    case 'arg':
      return instruction.args
        .filter((a) => a.value.includes('='))
        .map((a) => ({ value: a.value.slice(a.value.indexOf('=') + 1), range: a.range }));
    case 'copy':
    case 'add': {
      // `<<EOF` words name heredocs, whose bodies are checked apart.
      const heredoc = instruction.heredocs.length > 0;
      const words: Token[] = instruction.args.filter((a) => !(heredoc && a.value.startsWith('<<')));
      for (const flag of instruction.flags) {
        if (['from', 'chown', 'chmod'].includes(flag.name) && flag.flagValue !== null) {
          words.push({ value: flag.flagValue, range: flag.range });
        }
      }
      return words;
    }
    default:
      return instruction.args;
  }
}

function undefinedVars(
  instruction: Instruction,
  scope: Scope,
  known: Set<string>,
  escape: string,
  add: Add
): void {
  const defined = (n: string) => scope.has(n) || known.has(n);
  const lookup = (n: string) => (defined(n) ? (scope.get(n)?.value ?? '') : undefined);
  const reported = new Set<string>();
  const report = (names: string[]) => {
    for (const name of names) {
      const options = [
        ...known,
        ...[...scope.values()].filter((v) => v.value !== undefined).map((v) => v.name)
      ];
      if (reported.has(name)) continue;
      reported.add(name);
      const match = suggest(name, options);
      add(
        'UndefinedVar',
        `Usage of undefined variable '$${name}'` + (match ? ` (did you mean $${match}?)` : ''),
        instruction.range,
        {
          hint:
            known.size > 1
              ? undefined
              : `Declare ARG ${name} or ENV ${name} first (the base image may define it: BuildKit knows its environment).`
        }
      );
    }
  };
  // Most words have no variable: skip the lexer for them.
  for (const word of expandedWords(instruction)) {
    if (word.value.includes('$')) report(expand(word.value, lookup, escape).unset);
  }
  if (instruction.name === 'copy' || instruction.name === 'add') {
    for (const heredoc of instruction.heredocs) {
      // Heredoc bodies expand with quotes kept (BuildKit's raw expansion).
      if (heredoc.expand && heredoc.content.includes('$'))
        report(expand(heredoc.content.replace(/["']/g, ''), lookup, escape).unset);
    }
  }
}
