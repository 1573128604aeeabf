/**
 * What BuildKit's instruction parser (frontend/dockerfile/instructions/parse.go) refuses in an
 * instruction's arguments once the syntax parse has passed: argument counts, stage names, blank
 * names, ONBUILD triggers, SHELL in shell form, a URL source for COPY. Messages are BuildKit's.
 */

import type { Instruction, ParseResult } from '../types.ts';
import type { Finding } from './finding.ts';

const STAGE_NAME = /^[a-z][a-z0-9-_.]*$/;

export function checkArguments(parse: ParseResult): Finding[] {
  const findings: Finding[] = [];
  // An instruction the parser already refused is not judged again.
  const refused = new Set(parse.errors.map((e) => e.range.line));
  const visit = (instruction: Instruction) => {
    if (refused.has(instruction.range.line)) return;
    const message = problem(instruction);
    if (message) {
      findings.push({
        rule: 'InvalidInstruction',
        severity: 'error',
        message,
        range: instruction.range
      });
    }
    if (instruction.trigger) visit(instruction.trigger);
  };
  for (const instruction of parse.instructions) visit(instruction);
  return findings;
}

function problem(instruction: Instruction): string | undefined {
  const name = instruction.name.toUpperCase();
  const args = instruction.args.map((a) => a.value);
  const atLeastOne = args.length === 0 ? `${name} requires at least one argument` : undefined;
  const exactlyOne = args.length !== 1 ? `${name} requires exactly one argument` : undefined;
  switch (instruction.name) {
    case 'env':
    case 'label':
      if (atLeastOne) return atLeastOne;
      if ((instruction.pairs ?? []).some((p) => p.key.value === ''))
        return `${name} names can not be blank`;
      return undefined;
    case 'maintainer':
    case 'workdir':
    case 'user':
    case 'stopsignal':
      return exactlyOne;
    case 'add':
    case 'copy':
      if (args.length < 2) {
        return `${name} requires at least two arguments, but only one was provided. Destination could not be determined.`;
      }
      if (name === 'COPY' && args.slice(0, -1).some((a) => /^https?:\/\//.test(a))) {
        return "source can't be a URL for COPY";
      }
      return undefined;
    case 'from':
      if (args.length === 3 && args[1]!.toLowerCase() === 'as') {
        if (!STAGE_NAME.test(args[2]!.toLowerCase())) {
          return `invalid name for build stage: ${JSON.stringify(args[2])}, name can't start with a number or contain symbols`;
        }
        return undefined;
      }
      return args.length !== 1 ? 'FROM requires either one or three arguments' : undefined;
    case 'onbuild': {
      // BuildKit's arguments of ONBUILD start with the trigger's keyword.
      if (!instruction.trigger) return atLeastOne;
      const trigger = instruction.trigger.keyword.toUpperCase();
      if (trigger === 'ONBUILD') return "Chaining ONBUILD via `ONBUILD ONBUILD` isn't allowed";
      if (trigger === 'MAINTAINER' || trigger === 'FROM')
        return `${trigger} isn't allowed as an ONBUILD trigger`;
      return undefined;
    }
    case 'healthcheck':
    case 'expose':
      return atLeastOne;
    case 'volume':
      if (atLeastOne) return atLeastOne;
      return args.some((v) => v.trim() === '')
        ? 'VOLUME specified can not be an empty string'
        : undefined;
    case 'arg':
      if (atLeastOne) return atLeastOne;
      return args.some((a) => a.startsWith('=')) ? 'ARG names can not be blank' : undefined;
    case 'shell':
      if (!instruction.json) return 'SHELL requires the arguments to be in JSON form';
      return atLeastOne;
  }
  return undefined;
}
