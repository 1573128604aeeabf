/**
 * What BuildKit expands before it runs an instruction, and the variables it finds undefined
 * there (UndefinedVar): the words of each instruction (not RUN, CMD, ENTRYPOINT or HEALTHCHECK,
 * which the shell expands), mount flags, COPY/ADD flags and heredoc bodies.
 */

import { expand } from '../expand.ts';
import type { BuildFileModel, Scope, Stage } from '../model.ts';
import type { Instruction, Token } from '../types.ts';
import type { Add, CheckOptions } from './buildkit-checks.ts';
import { suggest } from './suggest.ts';

export const EMPTY_SCOPE: Scope = new Map();

export function expandValue(
  token: Token | undefined,
  scope: Scope,
  escape: string
): string | undefined {
  if (!token) return undefined;
  const result = expand(token.value, (n) => scope.get(n)?.value, escape);
  return result.error ? undefined : result.value;
}

/** Names defined in a stage without a declaration: PATH, and the base image's environment when known. */
export function knownImageEnv(
  model: BuildFileModel,
  stage: Stage,
  options: CheckOptions
): Set<string> {
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

export function undefinedVars(
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
