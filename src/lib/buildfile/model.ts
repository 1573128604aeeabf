/**
 * The build file as BuildKit's build sees it, on top of the parse: stages (names, bases,
 * dependencies through `FROM <stage>`, `COPY --from` and `RUN --mount=from=`), ARG and ENV
 * scoping with expansion, and what the target image ends up with (exposed ports, user, health
 * check, run-time environment). The rules, from BuildKit's dockerfile2llb:
 * - ARGs before the first FROM are global: usable in FROM lines only; inside a stage a global
 *   ARG is visible after `ARG NAME` re-declares it (taking the global value).
 * - Platform ARGs (BUILDPLATFORM, TARGETARCH …) are predefined globally, the same way.
 * - ENV is visible to later instructions of the stage and of stages built FROM it; it takes
 *   precedence over an ARG of the same name. ARGs are build-time only; ENV persists in the image.
 *   A stage's ARGs also reach stages built FROM it (BuildKit carries the build state over).
 * - Build arguments given to the build replace ARG defaults.
 */

import { expand, type Expansion } from './expand.ts';
import type { Instruction, ParseResult, Range, Token } from './types.ts';

export interface Variable {
  name: string;
  /** The value after expansion (a build argument replaces an ARG default); undefined when unset. */
  value: string | undefined;
  kind: 'arg' | 'env';
  /** Declared before the first FROM. */
  global: boolean;
  /** Predefined (platform ARGs): no declaration in the file. */
  predefined?: boolean;
  /** The ARG default or ENV value as written (quotes kept). */
  raw?: string;
  range?: Range;
  instruction?: Instruction;
}

export type Scope = ReadonlyMap<string, Variable>;

export interface StageDependency {
  /** The index of the stage depended on. */
  stage: number;
  via: 'from' | 'copy' | 'mount';
  instruction: Instruction;
  /** Where the reference is written (the FROM image, the --from flag, the --mount flag). */
  range: Range;
}

export interface Stage {
  index: number;
  /** The name as written after AS. */
  name?: string;
  nameToken?: Token;
  /** The base after expansion: an image reference, `scratch`, or a stage name. */
  base: string;
  baseToken?: Token;
  /** `--platform` of FROM after expansion. */
  platform?: string;
  /** The stage this one is built FROM, when the base names an earlier stage. */
  baseStage?: number;
  from: Instruction;
  /** The instructions after FROM, up to the next FROM. */
  instructions: Instruction[];
  dependencies: StageDependency[];
}

export interface ExposedPort {
  /** `80`, `8000-8010`. */
  port: string;
  protocol: string;
  value: string;
  range: Range;
  stage: number;
}

export interface HealthCheck {
  /** `CMD` or `NONE` as written (BuildKit refuses others when building). */
  type: string;
  options: Record<string, string | null>;
  /** The command: one string in shell form, the elements in exec form. */
  command: string[];
  json: boolean;
  instruction: Instruction;
  stage: number;
}

export interface BuildFileModel {
  parse: ParseResult;
  globalArgs: Variable[];
  stages: Stage[];
  /** The stage built: the one named by `target`, else the last. */
  target?: Stage;
  /** The target and the stages it needs, in build order. */
  targetStages: Stage[];
  /** Every ARG declaration, global and per stage: build-time variables. */
  buildArgs: Variable[];
  /** ENV of the target, inherited from its base stages: run-time variables. */
  runtimeEnv: Variable[];
  exposedPorts: ExposedPort[];
  /** The USER the target image runs as (expanded), with the instruction that set it. */
  user?: { value: string; instruction: Instruction; stage: number };
  healthcheck?: HealthCheck;
  /** The variables visible to each instruction (before it runs). */
  scopes: Map<Instruction, Scope>;
  /** Expansion problems (`${VAR`, bad modifiers) found while building the model. */
  expansionErrors: { message: string; range: Range }[];
}

export interface ModelOptions {
  target?: string;
  buildArgs?: Record<string, string>;
  /** The platform predefined ARGs describe; linux/amd64 unless given. */
  platform?: string;
}

const PLATFORM_ARGS = ['BUILDPLATFORM', 'TARGETPLATFORM'];

function predefined(platform: string): Variable[] {
  const [os = 'linux', arch = 'amd64', variant = ''] = platform.split('/');
  const values: Record<string, string> = {
    BUILDOS: os,
    BUILDARCH: arch,
    BUILDVARIANT: variant,
    TARGETOS: os,
    TARGETARCH: arch,
    TARGETVARIANT: variant
  };
  for (const name of PLATFORM_ARGS) values[name] = platform;
  return Object.entries(values).map(([name, value]) => ({
    name,
    value,
    kind: 'arg',
    global: true,
    predefined: true
  }));
}

/** RUN --mount's value: comma-separated key=value fields (a field may be quoted). */
function mountFields(value: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const field of value.match(/(?:"[^"]*"|[^,])+/g) ?? []) {
    const eq = field.indexOf('=');
    const key = (eq < 0 ? field : field.slice(0, eq)).trim().toLowerCase();
    const v = eq < 0 ? '' : field.slice(eq + 1).replace(/^"(.*)"$/, '$1');
    fields.set(key, v);
  }
  return fields;
}

export function buildModel(parse: ParseResult, options: ModelOptions = {}): BuildFileModel {
  const escape = parse.escapeToken;
  const buildArgValues = options.buildArgs ?? {};
  const scopes = new Map<Instruction, Scope>();
  const expansionErrors: BuildFileModel['expansionErrors'] = [];
  const buildArgs: Variable[] = [];

  const expandIn = (scope: Scope, token: { value: string; range: Range }): Expansion => {
    const result = expand(token.value, (name) => scope.get(name)?.value, escape);
    if (result.error) expansionErrors.push({ message: result.error, range: token.range });
    return result;
  };

  // ARG NAME[=default] words: `NAME`, `NAME=`, `NAME="a b"`.
  const declareArg = (
    scope: Map<string, Variable>,
    token: Token,
    instruction: Instruction,
    global: boolean,
    outer?: Scope
  ) => {
    const eq = token.value.indexOf('=');
    const name = eq < 0 ? token.value : token.value.slice(0, eq);
    const raw = eq < 0 ? undefined : token.value.slice(eq + 1);
    let value: string | undefined;
    if (name in buildArgValues) value = buildArgValues[name];
    else if (raw !== undefined) value = expandIn(scope, { value: raw, range: token.range }).value;
    else value = outer?.get(name)?.value;
    const variable: Variable = {
      name,
      value,
      kind: 'arg',
      global,
      raw,
      range: token.range,
      instruction
    };
    // An ENV of the same name keeps precedence over the ARG.
    if (scope.get(name)?.kind !== 'env') scope.set(name, variable);
    buildArgs.push(variable);
  };

  // Global ARGs: everything before the first FROM.
  let globalScope = new Map<string, Variable>(
    predefined(options.platform ?? 'linux/amd64').map((v) => [v.name, v])
  );
  const globalArgs: Variable[] = [];
  const instructions = parse.instructions;
  let i = 0;
  for (; i < instructions.length && instructions[i]!.name !== 'from'; i++) {
    const instruction = instructions[i]!;
    scopes.set(instruction, globalScope);
    if (instruction.name !== 'arg') continue;
    globalScope = new Map(globalScope);
    for (const token of instruction.args) {
      declareArg(globalScope, token, instruction, true);
      globalArgs.push(globalScope.get(token.value.split('=')[0]!)!);
    }
  }

  const stages: Stage[] = [];
  // Each stage's variables at its end: a stage built FROM it starts with them.
  const stageEnds: Scope[] = [];
  const byName = (name: string, before: number) => {
    const key = name.toLowerCase();
    for (let s = 0; s < before; s++) if (stages[s]!.name?.toLowerCase() === key) return s;
    return undefined;
  };
  // --from: a stage name, a stage index, or an image.
  const stageOf = (ref: string, current: number) => {
    if (/^\d+$/.test(ref)) {
      const n = Number(ref);
      return n < current ? n : undefined;
    }
    return byName(ref, current);
  };

  for (; i < instructions.length; i++) {
    const from = instructions[i]!;
    if (from.name !== 'from') continue;
    const index = stages.length;
    scopes.set(from, globalScope);
    const [image, as, nameToken] = from.args;
    const base = image ? expandIn(globalScope, image).value : '';
    const platformFlag = from.flags.find((f) => f.name === 'platform');
    const stage: Stage = {
      index,
      base,
      baseToken: image,
      from,
      instructions: [],
      dependencies: []
    };
    if (as?.value.toLowerCase() === 'as' && nameToken) {
      stage.name = nameToken.value;
      stage.nameToken = nameToken;
    }
    if (platformFlag?.flagValue != null) {
      stage.platform = expandIn(globalScope, {
        value: platformFlag.flagValue,
        range: platformFlag.range
      }).value;
    }
    stage.baseStage = byName(base, index);
    if (stage.baseStage !== undefined && image) {
      stage.dependencies.push({
        stage: stage.baseStage,
        via: 'from',
        instruction: from,
        range: image.range
      });
    }
    stages.push(stage);

    // A stage starts with the variables of the stage it is built FROM; global ARGs wait for
    // re-declaration.
    let scope: Map<string, Variable> = new Map(
      stage.baseStage !== undefined ? stageEnds[stage.baseStage] : []
    );
    for (i++; i < instructions.length && instructions[i]!.name !== 'from'; i++) {
      const instruction = instructions[i]!;
      stage.instructions.push(instruction);
      scopes.set(instruction, scope);
      if (instruction.name === 'arg') {
        scope = new Map(scope);
        for (const token of instruction.args)
          declareArg(scope, token, instruction, false, globalScope);
      } else if (instruction.name === 'env') {
        const before = scope;
        scope = new Map(scope);
        for (const pair of instruction.pairs ?? []) {
          // Every pair of one ENV is expanded with the variables from before that ENV.
          const value = expandIn(before, pair.value).value;
          scope.set(pair.key.value, {
            name: pair.key.value,
            value,
            kind: 'env',
            global: false,
            raw: pair.value.value,
            range: pair.key.range,
            instruction
          });
        }
      }
      const fromRefs: { ref: string; via: 'copy' | 'mount'; range: Range }[] = [];
      if (instruction.name === 'copy' || instruction.name === 'add') {
        for (const flag of instruction.flags) {
          if (flag.name === 'from' && flag.flagValue != null) {
            fromRefs.push({ ref: flag.flagValue, via: 'copy', range: flag.range });
          }
        }
      }
      if (instruction.name === 'run') {
        for (const flag of instruction.flags) {
          if (flag.name !== 'mount' || flag.flagValue == null) continue;
          const ref = mountFields(flag.flagValue).get('from');
          if (ref) fromRefs.push({ ref, via: 'mount', range: flag.range });
        }
      }
      for (const ref of fromRefs) {
        const value = expandIn(scope, { value: ref.ref, range: ref.range }).value;
        const target = stageOf(value, index);
        if (target !== undefined) {
          stage.dependencies.push({ stage: target, via: ref.via, instruction, range: ref.range });
        }
      }
    }
    i--;
    stageEnds.push(scope);
  }

  const target =
    options.target !== undefined
      ? stages.find((s) => s.name?.toLowerCase() === options.target!.toLowerCase())
      : stages[stages.length - 1];
  const targetStages = target ? closure(stages, target) : [];

  // The image config of the target comes down its chain of FROM stages.
  const chain: Stage[] = [];
  for (
    let s: Stage | undefined = target;
    s;
    s = s.baseStage !== undefined ? stages[s.baseStage] : undefined
  ) {
    chain.unshift(s);
  }
  const exposedPorts: ExposedPort[] = [];
  let user: BuildFileModel['user'];
  let healthcheck: HealthCheck | undefined;
  for (const stage of chain) {
    for (const instruction of stage.instructions) {
      const scope = scopes.get(instruction) ?? new Map();
      if (instruction.name === 'expose') {
        for (const arg of instruction.args) {
          const value = expandIn(scope, arg).value;
          const [port = '', protocol = 'tcp'] = value.split('/');
          exposedPorts.push({ port, protocol, value, range: arg.range, stage: stage.index });
        }
      } else if (instruction.name === 'user' && instruction.args[0]) {
        user = {
          value: expandIn(scope, instruction.args[0]).value,
          instruction,
          stage: stage.index
        };
      } else if (instruction.name === 'healthcheck' && instruction.args[0]) {
        const [type, ...command] = instruction.args;
        healthcheck = {
          type: type.value,
          options: Object.fromEntries(instruction.flags.map((f) => [f.name, f.flagValue])),
          command: command.map((c) => c.value),
          json: instruction.json,
          instruction,
          stage: stage.index
        };
      }
    }
  }
  const runtimeEnv: Variable[] = target
    ? [...(stageEnds[target.index]?.values() ?? [])].filter((v) => v.kind === 'env')
    : [];

  return {
    parse,
    globalArgs,
    stages,
    target,
    targetStages,
    buildArgs,
    runtimeEnv,
    exposedPorts,
    user,
    healthcheck,
    scopes,
    expansionErrors
  };
}

/** The stages `target` needs (itself included), each after the stages it depends on. */
function closure(stages: Stage[], target: Stage): Stage[] {
  const seen = new Set<number>();
  const order: Stage[] = [];
  const visit = (stage: Stage) => {
    if (seen.has(stage.index)) return;
    seen.add(stage.index);
    for (const dep of stage.dependencies) visit(stages[dep.stage]!);
    order.push(stage);
  };
  visit(target);
  return order;
}
