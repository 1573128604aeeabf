/**
 * BuildKit's checks of stages and their FROM lines: stage names (casing, reserved, duplicate),
 * FROM … AS casing, instruction casing over the file, definition descriptions, and the
 * variables and platform of each FROM (declared, defaulted to a valid image, not a constant).
 */

import { expand } from '../expand.ts';
import type { BuildFileModel, Stage } from '../model.ts';
import type { Instruction, Token } from '../types.ts';
import type { Add, CheckOptions } from './buildkit-checks.ts';
import { EMPTY_SCOPE } from './buildkit-variables.ts';
import { parseImageReference } from './reference.ts';
import { suggest } from './suggest.ts';

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
const isSelfConsistent = (s: string) => s === s.toLowerCase() || s === s.toUpperCase();

export function fromChecks(from: Instruction, add: Add): void {
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
export function definitionDescription(instruction: Instruction, add: Add): void {
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

export function stageNameChecks(stages: Stage[], add: Add): void {
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

export function casingCheck(stages: Stage[], add: Add): void {
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

export function fromArgChecks(model: BuildFileModel, options: CheckOptions, add: Add): void {
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
