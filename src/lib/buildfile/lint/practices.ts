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
import type { Flag, Instruction, Token } from '../types.ts';
import type { Finding } from './finding.ts';
import { parseIgnoreFile, type IgnoreMatcher } from './ignore.ts';
import { parseImageReference } from './reference.ts';
import { suggest } from './suggest.ts';

export interface PracticeOptions {
  /** The context's ignore file: its text, null when the context has none, undefined when unknown. */
  ignoreFile?: string | null;
}

type Add = (finding: Omit<Finding, 'severity'> & { severity?: Finding['severity'] }) => void;

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

interface CacheRule {
  manager: string;
  install: RegExp;
  cleaned: RegExp;
  cacheMount: RegExp;
  hint: string;
  /** An option to insert after the match of `insertAfter` that keeps no cache. */
  option?: { insertAfter: RegExp; text: string };
}

const CACHE_RULES: CacheRule[] = [
  {
    manager: 'apt-get',
    install: /\bapt(-get)? (-\S+ )*install\b/,
    cleaned: /rm -(rf|fr|r) [^;&|]*\/var\/lib\/apt\/lists/,
    cacheMount: /target=\/var\/(lib|cache)\/apt/,
    hint: 'End the RUN with && rm -rf /var/lib/apt/lists/*.'
  },
  {
    manager: 'apk',
    install: /\bapk (-\S+ )*add\b/,
    cleaned: /--no-cache|rm -(rf|fr|r) [^;&|]*\/var\/cache\/apk/,
    cacheMount: /target=\/(var\/cache\/apk|etc\/apk\/cache)/,
    hint: 'Use apk add --no-cache.',
    option: { insertAfter: /\bapk add\b/, text: ' --no-cache' }
  },
  {
    manager: 'yum/dnf',
    install: /\b(yum|dnf|microdnf) (-\S+ )*install\b/,
    cleaned: /\b(yum|dnf|microdnf) clean all\b|rm -(rf|fr|r) [^;&|]*\/var\/cache\/(yum|dnf)/,
    cacheMount: /target=\/var\/cache\/(yum|dnf)/,
    hint: 'End the RUN with && yum clean all (or dnf clean all).'
  },
  {
    manager: 'pip',
    install: /\bpip3? install\b/,
    cleaned: /--no-cache-dir|pip3? cache purge|PIP_NO_CACHE_DIR/,
    cacheMount: /target=\/root\/\.cache(\/pip)?\b/,
    hint: 'Use pip install --no-cache-dir, or a cache mount.',
    option: { insertAfter: /\bpip3? install\b/, text: ' --no-cache-dir' }
  },
  {
    manager: 'npm',
    install: /\bnpm (ci|install|i)\b/,
    cleaned: /npm cache clean\b/,
    cacheMount: /target=\/root\/\.npm\b/,
    hint: 'Use RUN --mount=type=cache,target=/root/.npm, or end with && npm cache clean --force.'
  }
];

function packageCaches(run: Instruction, add: Add): void {
  if (run.json) return;
  const command =
    run.args.map((a) => a.value).join(' ') + run.heredocs.map((h) => h.content).join('\n');
  const mounts = run.flags.filter((f) => f.name === 'mount').map((f) => f.flagValue ?? '');
  for (const rule of CACHE_RULES) {
    if (!rule.install.test(command) || rule.cleaned.test(command)) continue;
    if (mounts.some((m) => rule.cacheMount.test(m))) continue;
    add({
      rule: 'PackageCacheNotRemoved',
      message: `${rule.manager} leaves its package cache in the image layer`,
      range: run.range,
      hint: rule.hint,
      fix: optionFix(run, rule)
    });
  }
}

// Only where the command is one line written as parsed, so an offset in it is a column.
function optionFix(run: Instruction, rule: CacheRule): Finding['fix'] {
  const token = run.args[0];
  if (!rule.option || !token || run.args.length !== 1) return undefined;
  const { range } = token;
  if (range.line !== range.endLine || range.endColumn - range.column !== token.value.length) {
    return undefined;
  }
  const match = rule.option.insertAfter.exec(token.value);
  if (!match) return undefined;
  const column = range.column + match.index + match[0].length;
  return {
    title: `Add${rule.option.text}`,
    edits: [
      { line: range.line, column, endLine: range.line, endColumn: column, text: rule.option.text }
    ]
  };
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

function words(token: Token, scope: Scope, escape: string): string[] | undefined {
  if (!token.value.includes('$')) return [token.value];
  const result = expand(token.value, (n) => scope.get(n)?.value, escape);
  if (result.error || result.unset.length > 0) return undefined;
  return result.value.split(/\s+/).filter(Boolean);
}

function exposePorts(instruction: Instruction, scope: Scope, escape: string, add: Add): void {
  for (const token of instruction.args) {
    for (const port of words(token, scope, escape) ?? []) {
      const problem = portProblem(port);
      if (problem) {
        add({ rule: 'ExposeInvalidPort', severity: 'error', message: problem, range: token.range });
      }
    }
  }
}

/** BuildKit's parsePort, for the container part (the host part is ExposeInvalidFormat's). */
function portProblem(raw: string): string | undefined {
  const container = raw.split(':').pop()!;
  const slash = container.indexOf('/');
  const port = slash < 0 ? container : container.slice(0, slash);
  const proto = slash < 0 ? '' : container.slice(slash + 1);
  if (port === '') return `invalid port: "${raw}": no port specified`;
  if (!['', 'tcp', 'udp', 'sctp'].includes(proto.toLowerCase())) {
    return `invalid port: "${raw}": invalid proto: ${proto}`;
  }
  const [start = '', end] = port.split('-', 2);
  const number = (s: string) => (/^\d+$/.test(s) && Number(s) <= 65535 ? Number(s) : undefined);
  const first = number(start);
  const last = end === undefined ? first : number(end);
  if (first === undefined || last === undefined || last < first) {
    return `invalid containerPort: ${port} (ports are 0–65535)`;
  }
  return undefined;
}

const SIGNALS = new Set(
  'ABRT ALRM BUS CHLD CLD CONT FPE HUP ILL INT IO IOT KILL PIPE POLL PROF PWR QUIT SEGV STKFLT STOP SYS TERM TRAP TSTP TTIN TTOU UNUSED URG USR1 USR2 VTALRM WINCH XCPU XFSZ'.split(
    ' '
  )
);

function stopSignal(instruction: Instruction, scope: Scope, escape: string, add: Add): void {
  const token = instruction.args[0];
  if (!token) return;
  const [value] = words(token, scope, escape) ?? [];
  if (value === undefined) return;
  const name = value.toUpperCase().replace(/^SIG/, '');
  const rt = /^RTM(IN|AX)(\+\d+|-\d+)?$/.test(name);
  const number = /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 64;
  if (!SIGNALS.has(name) && !rt && !number) {
    add({
      rule: 'InvalidStopSignal',
      severity: 'error',
      message: `Invalid signal: ${value}`,
      range: token.range,
      hint: 'Use a signal name such as SIGTERM or SIGINT, or a number from 1 to 64.'
    });
  }
}

const DURATION = /^([0-9]*(\.[0-9]*)?(ns|us|µs|μs|ms|s|m|h))+$/;
const UNIT_NS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 6e10,
  h: 3.6e12
};

/** Go's time.ParseDuration in nanoseconds, or undefined when it refuses the text. */
export function goDuration(text: string): number | undefined {
  const sign = text.startsWith('-') ? -1 : 1;
  const body = text.replace(/^[-+]/, '');
  if (body === '0') return 0;
  if (!DURATION.test(body)) return undefined;
  let total = 0;
  for (const [, n, , unit] of body.matchAll(/([0-9]*(\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)/g)) {
    if (n === '' || n === '.') return undefined;
    total += Number(n) * UNIT_NS[unit!]!;
  }
  return sign * total;
}

function healthcheck(instruction: Instruction, add: Add): void {
  const [type, ...rest] = instruction.args;
  if (!type) return;
  const error = (message: string, range = instruction.range) =>
    add({ rule: 'InvalidHealthcheck', severity: 'error', message, range });
  const kind = type.value.toUpperCase();
  if (kind === 'NONE') {
    if (rest.length > 0) error('HEALTHCHECK NONE takes no arguments');
    return;
  }
  if (kind !== 'CMD') {
    error(`Unknown type "${kind}" in HEALTHCHECK (try CMD)`, type.range);
    return;
  }
  if (rest.length === 0 || rest.every((a) => a.value.trim() === '')) {
    error('Missing command after HEALTHCHECK CMD');
  }
  for (const flag of instruction.flags) {
    const value = flag.flagValue;
    if (value === null || value === '' || value.includes('$')) continue;
    if (flag.name === 'retries') {
      if (!/^[-+]?\d+$/.test(value))
        error(`strconv.ParseInt: parsing "${value}": invalid syntax`, flag.range);
      else if (Number(value) < 1)
        error(`--retries must be at least 1 (not ${Number(value)})`, flag.range);
      continue;
    }
    if (!['interval', 'timeout', 'start-period', 'start-interval'].includes(flag.name)) continue;
    const ns = goDuration(value);
    if (ns === undefined) error(`time: invalid duration "${value}"`, flag.range);
    else if (ns < 1e6 && ns !== 0)
      error(`Interval "${flag.name}" cannot be less than 1ms`, flag.range);
  }
}
