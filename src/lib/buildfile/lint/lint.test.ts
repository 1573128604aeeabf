import { describe, expect, it } from 'vitest';
import { BUILDKIT_RULES } from './buildkit-checks';
import { lintBuildFile, type LintOptions } from './index';

const lint = (source: string, options: LintOptions = {}) =>
  lintBuildFile(source, options).diagnostics;
const rules = (source: string, options: LintOptions = {}) =>
  lint(source, options).map((d) => d.rule);
const only = (source: string, rule: string) => lint(source).filter((d) => d.rule === rule);

// Each BuildKit check: a file that triggers it (BuildKit's message) and one that does not.
describe("BuildKit's checks", () => {
  const cases: [rule: string, bad: string, message: string, good: string][] = [
    [
      'StageNameCasing',
      'FROM a AS Build\n',
      "Stage name 'Build' should be lowercase",
      'FROM a AS build\n'
    ],
    [
      'FromAsCasing',
      'FROM a as b\n',
      "'as' and 'FROM' keywords' casing do not match",
      'from a as b\n'
    ],
    [
      'NoEmptyContinuation',
      'FROM a\nRUN a \\\n\n  b\n',
      'Empty continuation line',
      'FROM a\nRUN a \\\n  b\n'
    ],
    [
      'ConsistentInstructionCasing',
      'FROM a\nRUN x\nrun y\n',
      "Command 'run' should match the case of the command majority (uppercase)",
      'from a\nrun x\n'
    ],
    [
      'DuplicateStageName',
      'FROM a AS x\nFROM b AS X\n',
      'Duplicate stage name "x", stage names should be unique',
      'FROM a AS x\nFROM b AS y\n'
    ],
    [
      'ReservedStageName',
      'FROM a AS scratch\n',
      'Stage name should not use the same name as reserved stage "scratch"',
      'FROM a AS base\n'
    ],
    [
      'JSONArgsRecommended',
      'FROM a\nENTRYPOINT node server.js\n',
      'JSON arguments recommended for ENTRYPOINT to prevent unintended behavior related to OS signals',
      'FROM a\nSHELL ["/bin/sh", "-c"]\nENTRYPOINT node server.js\n'
    ],
    [
      'MaintainerDeprecated',
      'FROM a\nMAINTAINER me\n',
      'Maintainer instruction is deprecated in favor of using label',
      'FROM a\nLABEL org.opencontainers.image.authors=me\n'
    ],
    [
      'UndefinedArgInFrom',
      'ARG VERSION=1\nFROM a:$VERSON\n',
      "FROM argument 'VERSON' is not declared (did you mean VERSION?)",
      'ARG VERSION=1\nFROM a:$VERSION\n'
    ],
    [
      'WorkdirRelativePath',
      'FROM a\nWORKDIR app\n',
      'Relative workdir "app" can have unexpected results if the base image changes',
      'FROM a\nWORKDIR /srv\nWORKDIR app\n'
    ],
    [
      'UndefinedVar',
      'FROM a\nARG NAME=x\nCOPY $NAM /x\n',
      "Usage of undefined variable '$NAM' (did you mean $NAME?)",
      'FROM a\nARG NAME\nCOPY $NAME /x\nRUN echo $UNDECLARED_IN_SHELL\n'
    ],
    [
      'MultipleInstructionsDisallowed',
      'FROM a\nCMD ["a"]\nCMD ["b"]\n',
      'Multiple CMD instructions should not be used in the same stage because only the last one will be used',
      'FROM a AS one\nCMD ["a"]\nFROM one\nCMD ["b"]\n'
    ],
    [
      'LegacyKeyValueFormat',
      'FROM a\nENV A 1\n',
      '"ENV key=value" should be used instead of legacy "ENV key value" format',
      'FROM a\nENV A=1\n'
    ],
    [
      'RedundantTargetPlatform',
      'FROM --platform=$TARGETPLATFORM a\n',
      'Setting platform to predefined $TARGETPLATFORM in FROM is redundant as this is the default behavior',
      'FROM --platform=$BUILDPLATFORM a\n'
    ],
    [
      'SecretsUsedInArgOrEnv',
      'FROM a\nARG GITHUB_TOKEN\n',
      'Do not use ARG or ENV instructions for sensitive data (ARG "GITHUB_TOKEN")',
      'FROM a\nARG PUBLIC_KEY\nARG TOKENIZER\n'
    ],
    [
      'InvalidDefaultArgInFrom',
      'ARG TAG\nFROM busybox:$TAG\n',
      'Default value for ARG busybox:$TAG results in empty or invalid base image name',
      'ARG TAG=latest\nFROM busybox:$TAG\n'
    ],
    [
      'FromPlatformFlagConstDisallowed',
      'FROM --platform=linux/amd64 a AS build\n',
      'FROM --platform flag should not use constant value "linux/amd64"',
      'FROM --platform=linux/amd64 a AS build-amd64\n'
    ],
    [
      'ExposeProtoCasing',
      'FROM a\nEXPOSE 80/TCP\n',
      "Defined protocol '80/TCP' in EXPOSE instruction should be lowercase",
      'FROM a\nEXPOSE 80/tcp\n'
    ],
    [
      'ExposeInvalidFormat',
      'FROM a\nEXPOSE 127.0.0.1:80:80\n',
      "EXPOSE instruction should not define an IP address or host-port mapping, found '127.0.0.1:80:80'",
      'FROM a\nEXPOSE 80\n'
    ]
  ];

  for (const [rule, bad, message, good] of cases) {
    it(`${rule}: reports it with BuildKit's message, and not on a clean file`, () => {
      const found = only(bad, rule);
      expect(found.map((d) => d.message)).toEqual([message]);
      expect(found[0]).toMatchObject({
        severity: 'warning',
        url: expect.stringMatching(
          /^https:\/\/docs\.docker\.com\/go\/dockerfile\/rule\//
        ) as unknown
      });
      expect(rules(good)).not.toContain(rule);
    });
  }

  it('InvalidDefinitionDescription is experimental: only with check=experimental', () => {
    const source = '# bad description\nARG VERSION=1\nFROM a\n';
    expect(rules(source)).not.toContain('InvalidDefinitionDescription');
    const on = `# check=experimental=InvalidDefinitionDescription\n\n${source}`;
    expect(only(on, 'InvalidDefinitionDescription').map((d) => d.message)).toEqual([
      'Comment for ARG should follow the format: `# VERSION <description>`'
    ]);
    const good = '# check=experimental=all\n\n# VERSION of the app\nARG VERSION=1\nFROM a\n';
    expect(rules(good)).not.toContain('InvalidDefinitionDescription');
  });

  it('MultipleInstructionsDisallowed points at the instruction that is ignored', () => {
    const [found] = only(
      'FROM a\nHEALTHCHECK NONE\nHEALTHCHECK CMD ["x"]\n',
      'MultipleInstructionsDisallowed'
    );
    expect(found).toMatchObject({ line: 2, endLine: 2 });
  });

  it('UndefinedVar knows the base image environment when given, and ENV, ARG and PATH', () => {
    const source = 'FROM node:24\nENV APP=/srv\nWORKDIR $NODE_VERSION$APP$PATH\n';
    expect(rules(source)).toContain('UndefinedVar');
    const imageEnv = (image: string) => (image === 'node:24' ? ['NODE_VERSION'] : undefined);
    expect(rules(source, { imageEnv })).not.toContain('UndefinedVar');
  });

  it('UndefinedVar: ARGs of the stage built FROM count as defined, as in BuildKit', () => {
    expect(only('FROM a AS base\nARG V=1\nFROM base\nENV X=$V\n', 'UndefinedVar')).toEqual([]);
    expect(only('FROM a AS base\nARG V=1\nFROM a\nENV X=$V\n', 'UndefinedVar')).toHaveLength(1);
  });

  it('UndefinedVar: a global ARG needs re-declaring inside the stage', () => {
    expect(only('ARG V=1\nFROM a\nENV X=$V\n', 'UndefinedVar')).toHaveLength(1);
    expect(only('ARG V=1\nFROM a\nARG V\nENV X=$V\n', 'UndefinedVar')).toHaveLength(0);
  });

  it('WorkdirRelativePath and JSONArgsRecommended follow the FROM chain', () => {
    const source =
      'FROM a AS base\nWORKDIR /srv\nSHELL ["bash", "-c"]\nFROM base\nWORKDIR app\nCMD run\n';
    expect(rules(source)).not.toContain('WorkdirRelativePath');
    expect(rules(source)).not.toContain('JSONArgsRecommended');
  });

  it('ranges are the instruction’s, 1-based with an exclusive end', () => {
    const [d] = only('FROM a\n\nENV A 1\n', 'LegacyKeyValueFormat');
    expect(d).toMatchObject({ line: 3, column: 1, endLine: 3, endColumn: 8 });
  });
});

describe('# check directive', () => {
  const file = 'FROM a AS Build\nENV A 1\n';
  const buildkit = (source: string) => rules(source).filter((r) => r in BUILDKIT_RULES);

  it('skip= switches named rules off, skip=all every check', () => {
    expect(buildkit(`# check=skip=StageNameCasing\n${file}`)).toEqual(['LegacyKeyValueFormat']);
    expect(buildkit(`# check=skip=StageNameCasing,LegacyKeyValueFormat\n${file}`)).toEqual([]);
    expect(buildkit(`# check=skip=all\n${file}`)).toEqual([]);
    // Berth's practices are named the same way.
    expect(rules(`# check=skip=RootUser,NoHealthcheck,UnpinnedBaseImage\n${file}`)).toEqual([
      'StageNameCasing',
      'LegacyKeyValueFormat'
    ]);
  });

  it('error=true makes every BuildKit check an error (Berth’s practices keep theirs)', () => {
    const found = lint(`# check=error=true\n${file}`).filter((d) => d.rule in BUILDKIT_RULES);
    expect(found.map((d) => d.severity)).toEqual(['error', 'error']);
    expect(buildkit(`# check=skip=LegacyKeyValueFormat;error=true\n${file}`)).toHaveLength(1);
    expect(
      lint(`# check=error=true\n${file}`).find((d) => d.rule === 'NoHealthcheck')
    ).toMatchObject({
      severity: 'info'
    });
  });

  it('the build argument BUILDKIT_DOCKERFILE_CHECK replaces the directive, as in BuildKit', () => {
    const buildArgs = { BUILDKIT_DOCKERFILE_CHECK: 'skip=LegacyKeyValueFormat' };
    expect(buildkit(`# check=skip=StageNameCasing\n${file}`)).toEqual(['LegacyKeyValueFormat']);
    expect(rules(`# check=skip=StageNameCasing\n${file}`, { buildArgs })).toContain(
      'StageNameCasing'
    );
    expect(rules(`# check=skip=StageNameCasing\n${file}`, { buildArgs })).not.toContain(
      'LegacyKeyValueFormat'
    );
  });

  it('reports a malformed directive as BuildKit refuses it', () => {
    expect(lint(`# check=fast=1\n${file}`)[0]).toMatchObject({
      rule: 'InvalidCheckDirective',
      severity: 'error',
      message: 'failed to parse check options: invalid check option "fast"'
    });
  });

  it('the studio’s own skip list works on Berth’s rules too', () => {
    const skip = ['UnknownInstruction', 'RootUser', 'NoHealthcheck', 'UnpinnedBaseImage'];
    expect(rules('FROM a\nFOO x\n', { skip })).toEqual([]);
  });
});

describe('quick fixes', () => {
  const applied = (source: string, rule: string) => {
    const fix = only(source, rule)[0]?.fix;
    expect(fix).toBeDefined();
    const lines = source.split('\n');
    for (const edit of [...fix!.edits].reverse()) {
      const before = lines[edit.line - 1]!.slice(0, edit.column - 1);
      const after = (lines[edit.endLine - 1] ?? '').slice(edit.endColumn - 1);
      lines.splice(edit.line - 1, edit.endLine - edit.line + 1, before + edit.text + after);
    }
    return lines.join('\n');
  };

  it('fixes casing, legacy ENV, MAINTAINER, EXPOSE and empty continuations mechanically', () => {
    expect(applied('FROM a\nrun x\n', 'ConsistentInstructionCasing')).toBe('FROM a\nRUN x\n');
    expect(applied('FROM a as b\n', 'FromAsCasing')).toBe('FROM a AS b\n');
    expect(applied('FROM a AS Build\n', 'StageNameCasing')).toBe('FROM a AS build\n');
    expect(applied('FROM a\nENV A b c\n', 'LegacyKeyValueFormat')).toBe('FROM a\nENV A="b c"\n');
    expect(applied('FROM a\nMAINTAINER Jo <jo@x.org>\n', 'MaintainerDeprecated')).toBe(
      'FROM a\nLABEL org.opencontainers.image.authors="Jo <jo@x.org>"\n'
    );
    expect(applied('FROM a\nEXPOSE 53/UDP\n', 'ExposeProtoCasing')).toBe('FROM a\nEXPOSE 53/udp\n');
    expect(applied('FROM a\nRUN a \\\n\n  b\n', 'NoEmptyContinuation')).toBe(
      'FROM a\nRUN a \\\n  b\n'
    );
    expect(applied('FROM --platform=$TARGETPLATFORM a\n', 'RedundantTargetPlatform')).toBe(
      'FROM a\n'
    );
    expect(applied('FROM a\nCOPY --chwon=1 a b\n', 'UnknownFlag')).toBe(
      'FROM a\nCOPY --chown=1 a b\n'
    );
    expect(applied('FROM a\nRUNN x\n', 'UnknownInstruction')).toBe('FROM a\nRUN x\n');
  });

  it('offers no fix where one would change the meaning', () => {
    expect(only('FROM a\nENV A "b c" d\n', 'LegacyKeyValueFormat')[0]!.fix).toBeUndefined();
    expect(only('FROM a\nCMD run\n', 'JSONArgsRecommended')[0]!.fix).toBeUndefined();
  });
});

describe('every diagnostic', () => {
  it('has a rule, a severity, a message, a range and a hint', () => {
    const source = `# check=experimental=all
FROM --platform=linux/amd64 Alpine AS Scratch
maintainer me
ENV A b
RUN --mount=type=x --frm=1 apt-get install x
RUN echo
COPY --from=later a
ADD src /dst
EXPOSE 99999/TCP 1:2
STOPSIGNAL NOPE
HEALTHCHECK --retries=0 CMD x
CMD x
CMD y
FROM scratch AS later
WORKDIR rel
COPY $UNDEFINED /x
FOO bar
`;
    const diagnostics = lintBuildFile(source, { ignoreFile: null }).diagnostics;
    expect(new Set(diagnostics.map((d) => d.rule)).size).toBeGreaterThanOrEqual(25);
    for (const d of diagnostics) {
      expect(d.message, d.rule).not.toBe('');
      expect(['error', 'warning', 'info'], d.rule).toContain(d.severity);
      expect(d.line, d.rule).toBeGreaterThan(0);
      expect(d.endLine * 10_000 + d.endColumn, d.rule).toBeGreaterThan(
        d.line * 10_000 + d.column - 1
      );
      expect(d.hint, d.rule).toMatch(/\S/);
    }
  });
});

describe('syntax errors and stages', () => {
  it('reports what the parser refuses as SyntaxError errors', () => {
    expect(lint('FROM a\nENV A\n')[0]).toMatchObject({
      rule: 'SyntaxError',
      severity: 'error',
      message: 'ENV must have two arguments',
      line: 2
    });
  });

  it('refuses instructions before the first FROM other than ARG, and a file with no stage', () => {
    expect(rules('ARG A=1\nRUN x\nFROM a\n')).toContain('NoStage');
    expect(lint('ARG A=1\n')[0]!.message).toBe('dockerfile contains no stages to build');
  });

  it('a clean multi-stage file has no diagnostics', () => {
    const source = `# syntax=docker/dockerfile:1
ARG NODE=24
FROM node:\${NODE}-slim AS deps
WORKDIR /app
COPY --link package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci
FROM deps AS build
COPY . .
RUN npm run build
FROM node:\${NODE}-slim
WORKDIR /app
COPY --from=build --chown=node:node /app/build ./build
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s CMD ["node", "health.js"]
CMD ["node", "build"]
`;
    expect(lint(source)).toEqual([]);
  });
});
