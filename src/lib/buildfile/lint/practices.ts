/**
 * The build-file spec's practices and what BuildKit only finds when it builds, as diagnostics
 * with Berth's rule names (switched off like BuildKit's, by `# check=skip=<rule>`):
 * - UnpinnedBaseImage: a base image with no tag, or `latest`, and no digest;
 * - RootUser: the target image runs as root (no USER, or USER root/0);
 * - NoHealthcheck: the target image has no HEALTHCHECK (NONE counts as configured);
 * - PackageCacheNotRemoved: apt, apk, yum/dnf, pip and npm installs that leave their cache in
 *   the layer (not removed in the same RUN, no cache mount, no --no-cache option);
 * - ConsecutiveRun: RUN right after RUN with the same flags: one RUN makes one layer;
 * - ManifestAfterSources: the whole context copied before the dependencies are installed;
 * - PreferCopy: ADD of local files that are not archives;
 * - CopyFromStage: COPY --from / RUN --mount from= naming a later stage, the stage itself, an
 *   index out of range (BuildKit's errors), or a name that is no stage but close to one;
 * - ExposeInvalidPort, InvalidStopSignal, InvalidHealthcheck: values BuildKit refuses;
 * - NoIgnoreFile: the build context has no .dockerignore (when the caller knows the context).
 */

import { expand } from '../expand.ts';
import type { BuildFileModel, Scope, Stage } from '../model.ts';
import type { Flag, Instruction } from '../types.ts';
import type { Finding } from './finding.ts';
import { parseIgnoreFile, type IgnoreMatcher } from './ignore.ts';
import { exposePorts, healthcheck, stopSignal, words } from './instruction-values.ts';
import { packageCaches } from './package-caches.ts';
import { parseImageReference } from './reference.ts';
import { suggest } from './suggest.ts';

export interface PracticeOptions {
  /** The context's ignore file: its text, null when the context has none, undefined when unknown. */
  ignoreFile?: string | null;
}

export type Add = (finding: Omit<Finding, 'severity'> & { severity?: Finding['severity'] }) => void;

export function practiceChecks(model: BuildFileModel, options: PracticeOptions = {}): Finding[] {
  const findings: Finding[] = [];
  const add: Add = (f) => findings.push({ severity: 'warning', ...f });
  const escape = model.parse.escapeToken;
  const ignore = options.ignoreFile ? parseIgnoreFile(options.ignoreFile) : undefined;
  for (const stage of model.stages) {
    baseImage(stage, add);
    let previous: Instruction | undefined;
    let manifestCopied = false;
    let wholeContext: Instruction | undefined;
    for (const instruction of stage.instructions) {
      const scope = model.scopes.get(instruction) ?? EMPTY;
      switch (instruction.name) {
        case 'run':
          packageCaches(instruction, add);
          if (previous?.name === 'run') consecutiveRun(previous, instruction, add);
          if (wholeContext && !manifestCopied && installsDependencies(instruction)) {
            add({
              rule: 'ManifestAfterSources',
              severity: 'info',
              message:
                'Dependencies are installed after the whole context is copied: any source change reinstalls them',
              range: wholeContext.range,
              hint: 'COPY the dependency manifests (package.json, requirements.txt, go.mod …), install, then COPY the rest.'
            });
            wholeContext = undefined;
          }
          for (const flag of instruction.flags) {
            if (flag.name !== 'mount' || flag.flagValue === null) continue;
            const from = /(?:^|,)from=([^,]+)/i.exec(flag.flagValue)?.[1];
            if (from) stageReference(model, stage, from, flag, scope, escape, add);
          }
          break;
        case 'add':
          preferCopy(instruction, add);
          if (ignore) ignoredSources(instruction, 'Add', ignore, scope, escape, add);
          break;
        case 'copy': {
          const from = instruction.flags.find((f) => f.name === 'from' && f.flagValue !== null);
          if (from) stageReference(model, stage, from.flagValue!, from, scope, escape, add);
          else {
            if (ignore) ignoredSources(instruction, 'Copy', ignore, scope, escape, add);
            const sources = instruction.args.slice(0, -1).map((a) => a.value);
            if (sources.some((s) => MANIFESTS.test(s))) manifestCopied = true;
            else if (sources.some((s) => s === '.' || s === './')) wholeContext ??= instruction;
          }
          break;
        }
        case 'expose':
          exposePorts(instruction, scope, escape, add);
          break;
        case 'stopsignal':
          stopSignal(instruction, scope, escape, add);
          break;
        case 'healthcheck':
          healthcheck(instruction, add);
          break;
      }
      previous = instruction;
    }
  }
  finalImage(model, add);
  if (options.ignoreFile === null && model.stages.length > 0) {
    add({
      rule: 'NoIgnoreFile',
      severity: 'info',
      message: 'The build context has no .dockerignore: every file in it is sent to the engine',
      range: model.stages[0]!.from.range,
      hint: 'Add a .dockerignore listing .git, node_modules, build output and secrets.'
    });
  }
  return findings;
}

const EMPTY: Scope = new Map();
const MANIFESTS =
  /(^|\/)(package(-lock)?\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|requirements[^/]*\.txt|pyproject\.toml|poetry\.lock|Pipfile(\.lock)?|go\.(mod|sum)|Gemfile(\.lock)?|composer\.(json|lock)|Cargo\.(toml|lock)|pom\.xml|build\.gradle(\.kts)?)$/;
const INSTALL =
  /\b(npm (ci|install|i)\b|yarn( install)?\s*($|&&|;)|pnpm (install|i)\b|pip3? install\b.*-r|poetry install|pipenv install|go mod download|bundle install|composer install|cargo (fetch|build)|mvn\b.*dependency:|gradle\b.*dependencies)/;
const ARCHIVE = /\.(tar|tar\.(gz|bz2|xz|zst)|tgz|tbz2?|txz|gz|bz2|xz)$/i;

function installsDependencies(run: Instruction): boolean {
  return run.args.some((a) => INSTALL.test(a.value));
}

/**
 * BuildKit's CopyIgnoredFile (experimental, so only with `# check=experimental=…`): a context
 * source of COPY/ADD that the ignore file excludes, so the build does not find it.
 */
function ignoredSources(
  instruction: Instruction,
  cmd: 'Copy' | 'Add',
  ignore: IgnoreMatcher,
  scope: Scope,
  escape: string,
  add: Add
): void {
  const heredoc = instruction.heredocs.length > 0;
  for (const token of instruction.args.slice(0, -1)) {
    if (heredoc && token.value.startsWith('<<')) continue;
    const [src] = words(token, scope, escape) ?? [];
    if (src === undefined || /^(https?|git|ssh):\/\/|^git@/.test(src)) continue;
    if (ignore.ignores(src)) {
      add({
        rule: 'CopyIgnoredFile',
        message: `Attempting to ${cmd} file ${JSON.stringify(src)} that is excluded by .dockerignore`,
        range: instruction.range,
        hint: 'Remove the pattern from .dockerignore, or stop copying the file.'
      });
    }
  }
}

function baseImage(stage: Stage, add: Add): void {
  const base = stage.base;
  if (stage.baseStage !== undefined || base === 'scratch' || base === '' || !stage.baseToken)
    return;
  const ref = parseImageReference(base);
  if (!ref || ref.digest) return;
  if (ref.tag === undefined || ref.tag === 'latest') {
    add({
      rule: 'UnpinnedBaseImage',
      message:
        ref.tag === undefined
          ? `Base image '${base}' has no tag: it builds on whatever 'latest' is that day`
          : `Base image '${base}' uses the 'latest' tag`,
      range: stage.baseToken.range,
      hint: 'Pin a version tag (node:24.4-slim), or a digest for reproducible builds.'
    });
  }
}

function finalImage(model: BuildFileModel, add: Add): void {
  const target = model.target;
  if (!target) return;
  const user = model.user?.value.trim();
  const name = user?.split(':')[0];
  if (name === undefined || name === '' || name === 'root' || name === '0') {
    add({
      rule: 'RootUser',
      message: 'The image runs as root: no non-root USER in the final stage',
      range: model.user ? model.user.instruction.range : target.from.range,
      hint: 'Add USER <name or uid> after the steps that need root.'
    });
  }
  if (!model.healthcheck) {
    add({
      rule: 'NoHealthcheck',
      severity: 'info',
      message: 'The image has no HEALTHCHECK: the engine cannot tell when the service is unhealthy',
      range: target.from.range,
      hint: 'Add HEALTHCHECK CMD <a command exiting 0 when healthy>, or HEALTHCHECK NONE.'
    });
  }
}

function consecutiveRun(previous: Instruction, run: Instruction, add: Add): void {
  const flags = (i: Instruction) => i.flags.map((f) => f.value).join(' ');
  if (previous.json || run.json || previous.heredocs.length || run.heredocs.length) return;
  if (flags(previous) !== flags(run)) return;
  add({
    rule: 'ConsecutiveRun',
    severity: 'info',
    message: 'RUN right after RUN: each makes a layer; join them with &&',
    range: run.range,
    hint: 'Join related commands in one RUN (and clean up in the same RUN).'
  });
}

function preferCopy(instruction: Instruction, add: Add): void {
  if (instruction.heredocs.length > 0 || instruction.args.length < 2) return;
  const sources = instruction.args.slice(0, -1).map((a) => a.value);
  const remote = (s: string) => /^(https?|git|ssh):\/\//.test(s) || /^git@|\.git(#|$)/.test(s);
  if (sources.some((s) => remote(s) || ARCHIVE.test(s) || s.includes('$'))) return;
  const addOnly = instruction.flags.some((f) =>
    ['checksum', 'keep-git-dir', 'unpack'].includes(f.name)
  );
  const keyword = instruction.keyword === instruction.keyword.toLowerCase() ? 'copy' : 'COPY';
  add({
    rule: 'PreferCopy',
    message: 'Use COPY for local files: ADD also fetches URLs and unpacks archives',
    range: instruction.range,
    hint: 'ADD is for URLs, git sources and archives to unpack.',
    fix: addOnly
      ? undefined
      : { title: 'Change to COPY', edits: [{ ...instruction.keywordRange, text: keyword }] }
  });
}

function stageReference(
  model: BuildFileModel,
  stage: Stage,
  raw: string,
  flag: Flag,
  scope: Scope,
  escape: string,
  add: Add
): void {
  const result = expand(raw, (n) => scope.get(n)?.value, escape);
  if (result.error) return;
  const ref = result.value;
  const stageName = stage.name ?? `stage-${stage.index}`;
  const error = (message: string) =>
    add({ rule: 'CopyFromStage', severity: 'error', message, range: flag.range });
  if (/^\d+$/.test(ref)) {
    const n = Number(ref);
    if (n >= model.stages.length) error(`invalid stage index ${n}`);
    else if (n === stage.index) error(`circular dependency detected on stage: ${stageName}`);
    else if (n > stage.index) {
      error(
        `cannot copy from stage "${ref}", it needs to be defined before current stage "${stageName}"`
      );
    }
    return;
  }
  const named = model.stages.find((s) => s.name?.toLowerCase() === ref.toLowerCase());
  if (named) {
    if (named.index === stage.index) error(`circular dependency detected on stage: ${stageName}`);
    else if (named.index > stage.index) {
      error(
        `cannot copy from stage "${ref}", it needs to be defined before current stage "${stageName}"`
      );
    }
    return;
  }
  const names = model.stages.flatMap((s) => (s.name ? [s.name] : []));
  const match = suggest(
    ref.toLowerCase(),
    names.map((n) => n.toLowerCase())
  );
  if (match) {
    add({
      rule: 'CopyFromStage',
      message: `'${ref}' names no stage: it is pulled as an image (did you mean ${match}?)`,
      range: flag.range
    });
  }
}
