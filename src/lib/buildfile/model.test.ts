import { describe, expect, it } from 'vitest';
import { buildModel, type BuildFileModel } from './model';
import { parse } from './parser';

const model = (source: string, options = {}): BuildFileModel => buildModel(parse(source), options);
const scopeValue = (m: BuildFileModel, line: number, name: string) => {
  const instruction = m.parse.instructions.find((i) => i.range.line === line)!;
  return m.scopes.get(instruction)?.get(name)?.value;
};

const MULTI = `ARG NODE=24
ARG BASE=node:\${NODE}-slim
FROM \${BASE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci

FROM deps AS Build
COPY . .
RUN --mount=type=cache,target=/root/.npm,from=deps npm run build

FROM alpine:3.20 AS tools
RUN apk add curl

FROM node:\${NODE}-slim
ENV PORT=3000 HOME_DIR=/srv
COPY --from=build /app/build \${HOME_DIR}/build
COPY --from=2 /usr/bin/curl /usr/bin/curl
COPY --from=nginx:1.27 /etc/nginx /etc/nginx
EXPOSE \${PORT} 9229/udp
USER node
HEALTHCHECK --interval=10s CMD ["curl", "-f", "http://localhost:3000/health"]
`;

describe('stages', () => {
  it('names, bases and dependencies through FROM, COPY --from and RUN --mount=from', () => {
    const m = model(MULTI);
    expect(m.stages.map((s) => [s.index, s.name, s.base, s.baseStage])).toEqual([
      [0, 'deps', 'node:24-slim', undefined],
      [1, 'Build', 'deps', 0],
      [2, 'tools', 'alpine:3.20', undefined],
      [3, undefined, 'node:24-slim', undefined]
    ]);
    expect(m.stages[1]!.dependencies.map((d) => [d.via, d.stage])).toEqual([
      ['from', 0],
      ['mount', 0]
    ]);
    // Stage names match case-insensitively; an index names a stage; anything else is an image.
    expect(m.stages[3]!.dependencies.map((d) => [d.via, d.stage])).toEqual([
      ['copy', 1],
      ['copy', 2]
    ]);
    expect(m.target?.index).toBe(3);
    expect(m.targetStages.map((s) => s.index)).toEqual([0, 1, 2, 3]);
  });

  it('builds a named target and only the stages it needs', () => {
    const m = model(MULTI, { target: 'build' });
    expect(m.target?.name).toBe('Build');
    expect(m.targetStages.map((s) => s.index)).toEqual([0, 1]);
  });

  it('does not take a later stage or the stage itself as a dependency', () => {
    const m = model('FROM a AS one\nCOPY --from=two /x /x\nCOPY --from=one /y /y\nFROM b AS two\n');
    expect(m.stages[0]!.dependencies).toEqual([]);
  });
});

describe('ARG and ENV scoping', () => {
  it('global ARGs serve FROM; inside a stage only after ARG re-declares them', () => {
    const m = model('ARG V=1\nFROM a:$V\nRUN echo $V\nARG V\nRUN echo $V\n');
    expect(m.stages[0]!.base).toBe('a:1');
    expect(scopeValue(m, 3, 'V')).toBeUndefined();
    expect(scopeValue(m, 5, 'V')).toBe('1');
    expect(m.globalArgs.map((a) => [a.name, a.value, a.global])).toEqual([['V', '1', true]]);
  });

  it('build arguments replace defaults; a stage default stands alone', () => {
    const source = 'ARG V=1\nFROM a:$V\nARG V=2\nARG W\nRUN x\n';
    expect(model(source).stages[0]!.base).toBe('a:1');
    expect(scopeValue(model(source), 5, 'V')).toBe('2');
    const given = model(source, { buildArgs: { V: '9', W: 'w' } });
    expect(given.stages[0]!.base).toBe('a:9');
    expect(scopeValue(given, 5, 'V')).toBe('9');
    expect(scopeValue(given, 5, 'W')).toBe('w');
  });

  it('expands ENV in order, one ENV line against the variables before it', () => {
    const m = model('FROM a\nENV A=1 B=$A\nENV C="${A}-${B:-none}" D=\'$A\'\nRUN x\n');
    expect(scopeValue(m, 4, 'B')).toBe('');
    expect(scopeValue(m, 4, 'C')).toBe('1-none');
    expect(scopeValue(m, 4, 'D')).toBe('$A');
  });

  it('lets ENV win over an ARG of the same name and carries ENV into stages built FROM it', () => {
    const m = model('FROM a AS base\nENV MODE=prod\nARG MODE=dev\nRUN x\nFROM base\nRUN y\n');
    expect(scopeValue(m, 4, 'MODE')).toBe('prod');
    expect(m.scopes.get(m.parse.instructions[5]!)?.get('MODE')?.kind).toBe('env');
  });

  it('carries a stage’s ARGs into stages built FROM it, but not into the run-time ENV', () => {
    const m = model('FROM a AS base\nARG V=1\nENV E=2\nFROM base\nRUN x\n');
    expect(scopeValue(m, 5, 'V')).toBe('1');
    expect(m.runtimeEnv.map((v) => v.name)).toEqual(['E']);
  });

  it('predefines the platform ARGs globally', () => {
    const m = model(
      'FROM --platform=$BUILDPLATFORM golang AS b\nARG TARGETARCH\nRUN echo $TARGETARCH\n',
      {
        platform: 'linux/arm64'
      }
    );
    expect(m.stages[0]!.platform).toBe('linux/arm64');
    expect(scopeValue(m, 3, 'TARGETARCH')).toBe('arm64');
  });

  it('separates build-time ARGs from run-time ENV', () => {
    const m = model(MULTI);
    expect(m.buildArgs.map((a) => a.name)).toEqual(['NODE', 'BASE']);
    expect(m.runtimeEnv.map((v) => [v.name, v.value])).toEqual([
      ['PORT', '3000'],
      ['HOME_DIR', '/srv']
    ]);
  });

  it('reports expansion errors with their range', () => {
    const m = model('FROM a\nWORKDIR /x\nCOPY --from=${X /a /b\n');
    expect(m.expansionErrors).toEqual([
      expect.objectContaining({ range: expect.objectContaining({ line: 3 }) as unknown })
    ]);
  });
});

describe('the target image', () => {
  it('collects exposed ports, the final user and the health check', () => {
    const m = model(MULTI);
    expect(m.exposedPorts.map((p) => [p.port, p.protocol])).toEqual([
      ['3000', 'tcp'],
      ['9229', 'udp']
    ]);
    expect(m.user?.value).toBe('node');
    expect(m.healthcheck).toMatchObject({
      type: 'CMD',
      options: { interval: '10s' },
      command: ['curl', '-f', 'http://localhost:3000/health'],
      json: true
    });
  });

  it('inherits them from the stages the target is built FROM, the last one winning', () => {
    const m = model(
      'FROM a AS base\nUSER app\nEXPOSE 80\nHEALTHCHECK NONE\nFROM base\nUSER $NOPE\n'
    );
    expect(m.user?.value).toBe('');
    expect(m.exposedPorts.map((p) => p.value)).toEqual(['80']);
    expect(m.healthcheck?.type).toBe('NONE');
    expect(model('FROM a\nRUN x\n').user).toBeUndefined();
  });
});
