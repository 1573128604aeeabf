/**
 * `lintBuildFile(source)`: every diagnostic of a build file, pure (Node and browser alike).
 * - syntax errors (what BuildKit's parser refuses), rule `SyntaxError`;
 * - unknown instructions and flags, bad flag values and RUN --mount options (flags.ts), and
 *   the arguments BuildKit's instruction parser refuses (arguments.ts);
 * - BuildKit's build checks with its rule names and messages (buildkit-checks.ts), honouring the
 *   file's `# check=skip=…`, `# check=error=true` and `# check=experimental=…` directive as
 *   BuildKit does; `skip` also takes Berth's rule names;
 * - the spec's practices and values BuildKit refuses only when building (practices.ts).
 * Sorted by position.
 */

import { buildModel, type BuildFileModel, type ModelOptions } from '../model.ts';
import { parse as parseBuildFile } from '../parser.ts';
import type { ParseResult, Range } from '../types.ts';
import { BUILDKIT_RULES, buildkitChecks, EXPERIMENTAL_RULES } from './buildkit-checks.ts';
import { parseCheckDirective } from './config.ts';
import type { Finding } from './finding.ts';
import { checkArguments } from './arguments.ts';
import { checkInstructions } from './flags.ts';
import { DEFAULT_HINTS } from './hints.ts';
import { practiceChecks, type PracticeOptions } from './practices.ts';
import type { Diagnostic } from './types.ts';

export type { Diagnostic, Fix, Severity, TextEdit } from './types.ts';

export interface LintOptions extends ModelOptions, PracticeOptions {
  /** Environment variable names of an external base image (e.g. from the engine's inspect). */
  imageEnv?: (image: string) => readonly string[] | undefined;
  /** Rules switched off besides the file's own `# check=skip=` (the studio's settings). */
  skip?: readonly string[];
}

export interface LintResult {
  parse: ParseResult;
  model: BuildFileModel;
  diagnostics: Diagnostic[];
}

export function lintBuildFile(source: string, options: LintOptions = {}): LintResult {
  const parse = parseBuildFile(source);
  const model = buildModel(parse, options);
  return { parse, model, diagnostics: lintParsed(parse, model, options) };
}

export function lintParsed(
  parse: ParseResult,
  model: BuildFileModel,
  options: LintOptions = {}
): Diagnostic[] {
  const findings: Finding[] = parse.errors.map((e) => ({
    rule: 'SyntaxError',
    severity: 'error',
    message: e.message,
    range: e.range
  }));
  const checkDirective = parse.directives.find((d) => d.name === 'check');
  // As in BuildKit, the build argument BUILDKIT_DOCKERFILE_CHECK replaces the file's directive.
  const checkArg = options.buildArgs?.BUILDKIT_DOCKERFILE_CHECK;
  const config = parseCheckDirective(checkArg ?? checkDirective?.value);
  if ('invalid' in config) {
    findings.push({
      rule: 'InvalidCheckDirective',
      severity: 'error',
      message: `failed to parse check options: ${config.invalid}`,
      range: checkArg === undefined ? checkDirective!.valueRange : FILE_START
    });
  }
  const syntax = parse.directives.find((d) => d.name === 'syntax')?.value ?? '';
  findings.push(...checkInstructions(parse, syntax.includes('labs')));
  findings.push(...checkArguments(parse));

  if (model.stages.length === 0 && parse.errors.length === 0) {
    findings.push({
      rule: 'NoStage',
      severity: 'error',
      message: 'dockerfile contains no stages to build',
      range: FILE_START
    });
  }
  for (const instruction of model.parse.instructions) {
    if (instruction.name === 'from') break;
    if (instruction.name !== 'arg' && parse.errors.length === 0) {
      findings.push({
        rule: 'NoStage',
        severity: 'error',
        message: 'no build stage in current context',
        range: instruction.range
      });
    }
  }

  const defaultsModel =
    options.buildArgs && Object.keys(options.buildArgs).length > 0
      ? buildModel(parse, { ...options, buildArgs: {} })
      : model;
  const checks = buildkitChecks(model, { imageEnv: options.imageEnv, defaultsModel });
  if (parse.errors.length === 0) checks.push(...practiceChecks(model, options));
  const skip = new Set(options.skip ?? []);
  const cfg = 'invalid' in config ? undefined : config;
  for (const finding of checks) {
    if (skip.has(finding.rule) || cfg?.skip.has(finding.rule)) continue;
    // BuildKit's own checks: skip=all, experimental opt-in and error=true apply to them only.
    if (finding.rule in BUILDKIT_RULES) {
      if (cfg?.skipAll) continue;
      const optedIn = cfg?.experimentalAll || cfg?.experimental.has(finding.rule);
      if (EXPERIMENTAL_RULES.has(finding.rule) && !optedIn) continue;
      if (cfg?.error) finding.severity = 'error';
    }
    findings.push(finding);
  }

  return findings
    .filter((f) => !skip.has(f.rule))
    .map(toDiagnostic)
    .sort((a, b) => a.line - b.line || a.column - b.column);
}

function toDiagnostic(finding: Finding): Diagnostic {
  const { range, rule } = finding;
  const slug = (BUILDKIT_RULES as Record<string, string>)[rule];
  const diagnostic: Diagnostic = {
    rule,
    severity: finding.severity,
    message: finding.message,
    ...position(range)
  };
  const hint = finding.hint ?? DEFAULT_HINTS[rule];
  if (hint) diagnostic.hint = hint;
  if (slug) diagnostic.url = `https://docs.docker.com/go/dockerfile/rule/${slug}/`;
  if (finding.fix) diagnostic.fix = finding.fix;
  return diagnostic;
}

const FILE_START: Range = { line: 1, column: 1, endLine: 1, endColumn: 1 };

const position = (r: Range) => ({
  line: r.line,
  column: r.column,
  endLine: r.endLine,
  endColumn: r.endColumn
});
