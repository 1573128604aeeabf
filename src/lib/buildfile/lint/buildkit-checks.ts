/**
 * BuildKit's own build checks (`docker build --check`, frontend/dockerfile/linter), with its rule
 * names and messages, each fired where BuildKit's instruction parser and dockerfile2llb fire it:
 * casing and stage-name checks over the parse, variable checks over the model's scopes (what
 * BuildKit expands: not RUN, CMD, ENTRYPOINT or HEALTHCHECK, which the shell expands), and
 * image-config checks (SHELL, WORKDIR, CMD …) along each stage's FROM chain.
 * Not here: InvalidBaseImagePlatform (needs the pulled image).
 */

import type { BuildFileModel, Scope } from '../model.ts';
import type { Instruction, Range } from '../types.ts';
import {
  casingCheck,
  definitionDescription,
  fromArgChecks,
  fromChecks,
  stageNameChecks
} from './buildkit-stage-checks.ts';
import { EMPTY_SCOPE, expandValue, knownImageEnv, undefinedVars } from './buildkit-variables.ts';
import type { Finding } from './finding.ts';

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

export type Add = (
  rule: keyof typeof BUILDKIT_RULES,
  message: string,
  range: Range,
  extra?: Partial<Finding>
) => void;

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
