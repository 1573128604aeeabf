import { describe, expect, it } from 'vitest';
import { lintBuildFile, type LintOptions } from './index';
import { goDuration } from './instruction-values';

const find = (source: string, rule: string, options: LintOptions = {}) =>
  lintBuildFile(source, options).diagnostics.filter((d) => d.rule === rule);
const messages = (source: string, rule: string) => find(source, rule).map((d) => d.message);

describe('the spec’s practices', () => {
  it('UnpinnedBaseImage: no tag or latest, not a digest, a stage or scratch', () => {
    expect(messages('FROM alpine\n', 'UnpinnedBaseImage')).toEqual([
      "Base image 'alpine' has no tag: it builds on whatever 'latest' is that day"
    ]);
    expect(messages('ARG T=latest\nFROM node:$T\n', 'UnpinnedBaseImage')).toEqual([
      "Base image 'node:latest' uses the 'latest' tag"
    ]);
    const pinned = `FROM alpine:3.20 AS a
FROM alpine@sha256:${'a'.repeat(64)}
FROM a
FROM scratch
`;
    expect(find(pinned, 'UnpinnedBaseImage')).toEqual([]);
  });

  it('RootUser: the target runs as root unless a USER names someone else, inherited FROM a stage', () => {
    expect(find('FROM a:1\nRUN x\n', 'RootUser')).toHaveLength(1);
    expect(find('FROM a:1\nUSER root:root\n', 'RootUser')[0]).toMatchObject({ line: 2 });
    expect(find('FROM a:1\nUSER 0\n', 'RootUser')).toHaveLength(1);
    expect(find('FROM a:1 AS base\nUSER app\nFROM base\nRUN x\n', 'RootUser')).toEqual([]);
    expect(find('FROM a:1 AS build\nRUN x\nFROM b:1\nUSER 1000:1000\n', 'RootUser')).toEqual([]);
  });

  it('NoHealthcheck: info when the target has none; NONE counts as a choice', () => {
    expect(find('FROM a:1\n', 'NoHealthcheck')[0]).toMatchObject({ severity: 'info' });
    expect(find('FROM a:1\nHEALTHCHECK NONE\n', 'NoHealthcheck')).toEqual([]);
    expect(find('FROM a:1 AS b\nHEALTHCHECK CMD ["x"]\nFROM b\n', 'NoHealthcheck')).toEqual([]);
  });

  it('PackageCacheNotRemoved: apt, apk, yum/dnf, pip and npm unless cleaned in the same RUN', () => {
    const bad = `FROM a:1
RUN apt-get update && apt-get install -y curl
RUN apk add curl
RUN dnf install -y git
RUN pip install flask
RUN npm ci
`;
    expect(messages(bad, 'PackageCacheNotRemoved')).toEqual([
      'apt-get leaves its package cache in the image layer',
      'apk leaves its package cache in the image layer',
      'yum/dnf leaves its package cache in the image layer',
      'pip leaves its package cache in the image layer',
      'npm leaves its package cache in the image layer'
    ]);
    const good = `FROM a:1
RUN apt-get update && apt-get install -y curl \\
    && rm -rf /var/lib/apt/lists/*
RUN apk add --no-cache curl
RUN dnf install -y git && dnf clean all
RUN pip install --no-cache-dir flask
RUN --mount=type=cache,target=/root/.npm npm ci
RUN --mount=type=cache,target=/var/cache/apt apt-get install -y x && echo
`;
    expect(find(good, 'PackageCacheNotRemoved')).toEqual([]);
  });

  it('PackageCacheNotRemoved: fixes apk and pip by adding their no-cache option', () => {
    const [apk] = find('FROM a:1\nRUN apk add curl\n', 'PackageCacheNotRemoved');
    expect(apk!.fix).toEqual({
      title: 'Add --no-cache',
      edits: [{ line: 2, column: 12, endLine: 2, endColumn: 12, text: ' --no-cache' }]
    });
    const [pip] = find('FROM a:1\nRUN pip install -r r.txt\n', 'PackageCacheNotRemoved');
    expect(pip!.fix?.edits[0]).toMatchObject({ column: 16, text: ' --no-cache-dir' });
    expect(
      find('FROM a:1\nRUN apt-get install -y x\n', 'PackageCacheNotRemoved')[0]!.fix
    ).toBeUndefined();
  });

  it('ConsecutiveRun: RUN after RUN with the same flags', () => {
    expect(find('FROM a:1\nRUN a\nRUN b\n', 'ConsecutiveRun')[0]).toMatchObject({
      line: 3,
      severity: 'info'
    });
    expect(find('FROM a:1\nRUN a\nCOPY x y\nRUN b\n', 'ConsecutiveRun')).toEqual([]);
    expect(find('FROM a:1\nRUN a\nRUN --network=none b\n', 'ConsecutiveRun')).toEqual([]);
    expect(find('FROM a:1\nRUN a\nRUN ["b"]\n', 'ConsecutiveRun')).toEqual([]);
  });

  it('ManifestAfterSources: the whole context copied before installing dependencies', () => {
    expect(find('FROM a:1\nCOPY . .\nRUN npm ci\n', 'ManifestAfterSources')[0]).toMatchObject({
      line: 2
    });
    expect(
      find(
        'FROM a:1\nCOPY package*.json ./\nRUN npm ci\nCOPY . .\nRUN npm run build\n',
        'ManifestAfterSources'
      )
    ).toEqual([]);
    expect(find('FROM a:1\nCOPY . .\nRUN make\n', 'ManifestAfterSources')).toEqual([]);
  });

  it('PreferCopy: ADD of local non-archives, fixed to COPY', () => {
    const [d] = find('FROM a:1\nADD src /app/\n', 'PreferCopy');
    expect(d!.fix?.edits).toEqual([{ line: 2, column: 1, endLine: 2, endColumn: 4, text: 'COPY' }]);
    const fine = `FROM a:1
ADD https://example.com/x.bin /x
ADD app.tar.gz /srv/
ADD git@github.com:moby/buildkit.git /src
ADD --checksum=sha256:00 https://x/y /y
`;
    expect(find(fine, 'PreferCopy')).toEqual([]);
  });

  it('CopyFromStage: a later stage, itself, an index out of range, a near-miss name', () => {
    const source = `FROM a:1 AS build
COPY --from=build /a /a
COPY --from=test /b /b
COPY --from=5 /c /c
COPY --from=biuld /d /d
RUN --mount=from=test,target=/t x
FROM a:1 AS test
COPY --from=build /e /e
COPY --from=nginx:1.27 /f /f
`;
    expect(find(source, 'CopyFromStage').map((d) => [d.line, d.severity, d.message])).toEqual([
      [2, 'error', 'circular dependency detected on stage: build'],
      [
        3,
        'error',
        'cannot copy from stage "test", it needs to be defined before current stage "build"'
      ],
      [4, 'error', 'invalid stage index 5'],
      [5, 'warning', "'biuld' names no stage: it is pulled as an image (did you mean build?)"],
      [
        6,
        'error',
        'cannot copy from stage "test", it needs to be defined before current stage "build"'
      ]
    ]);
  });

  it('ExposeInvalidPort: out of range, bad ranges and protocols', () => {
    expect(
      messages('FROM a:1\nEXPOSE 70000 90-80 53/icmp 8080 1000-2000/udp\n', 'ExposeInvalidPort')
    ).toEqual([
      'invalid containerPort: 70000 (ports are 0–65535)',
      'invalid containerPort: 90-80 (ports are 0–65535)',
      'invalid port: "53/icmp": invalid proto: icmp'
    ]);
    expect(find('FROM a:1\nARG P=99999\nEXPOSE $P\n', 'ExposeInvalidPort')).toHaveLength(1);
  });

  it('InvalidStopSignal: names with or without SIG, numbers 1–64', () => {
    expect(messages('FROM a:1\nSTOPSIGNAL SIGTERMINATE\n', 'InvalidStopSignal')).toEqual([
      'Invalid signal: SIGTERMINATE'
    ]);
    expect(find('FROM a:1\nSTOPSIGNAL 99\n', 'InvalidStopSignal')).toHaveLength(1);
    for (const ok of ['SIGTERM', 'sigint', 'QUIT', '9', 'SIGRTMIN+3']) {
      expect(find(`FROM a:1\nSTOPSIGNAL ${ok}\n`, 'InvalidStopSignal'), ok).toEqual([]);
    }
  });

  it('InvalidHealthcheck: durations, retries, the type and the command, with BuildKit’s messages', () => {
    const bad = `FROM a:1
HEALTHCHECK --interval=5 CMD x
HEALTHCHECK --timeout=500us CMD x
HEALTHCHECK --retries=0 CMD x
HEALTHCHECK NONE x
HEALTHCHECK CHECK x
HEALTHCHECK CMD
`;
    expect(messages(bad, 'InvalidHealthcheck')).toEqual([
      'time: invalid duration "5"',
      'Interval "timeout" cannot be less than 1ms',
      '--retries must be at least 1 (not 0)',
      'HEALTHCHECK NONE takes no arguments',
      'Unknown type "CHECK" in HEALTHCHECK (try CMD)',
      'Missing command after HEALTHCHECK CMD'
    ]);
    const good =
      'FROM a:1\nHEALTHCHECK --interval=1m30s --timeout=3s --start-period=0s --retries=5 CMD x\n';
    expect(find(good, 'InvalidHealthcheck')).toEqual([]);
  });

  it('goDuration reads Go durations', () => {
    expect(goDuration('1h2m3.5s')).toBe(3723.5e9);
    expect(goDuration('300ms')).toBe(3e8);
    expect(goDuration('0')).toBe(0);
    expect(goDuration('5')).toBeUndefined();
    expect(goDuration('1d')).toBeUndefined();
  });

  it('NoIgnoreFile: only when the caller knows the context has none', () => {
    expect(find('FROM a:1\n', 'NoIgnoreFile')).toEqual([]);
    expect(find('FROM a:1\n', 'NoIgnoreFile', { ignoreFile: null })[0]).toMatchObject({
      severity: 'info'
    });
    expect(find('FROM a:1\n', 'NoIgnoreFile', { ignoreFile: 'node_modules\n' })).toEqual([]);
  });
});

describe('CopyIgnoredFile (BuildKit’s, experimental) and the ignore-file matcher', () => {
  const ignoreFile = '# build output\nnode_modules\n**/*.log\n/dist\n!dist/keep.txt\nsecret?.txt\n';
  const on = '# check=experimental=CopyIgnoredFile\n';

  it('reports context sources the ignore file excludes, only when opted in', () => {
    const source = `${on}FROM a:1
COPY node_modules/x /x
COPY logs/app.log ./dist/keep.txt /y/
ADD secret1.txt /z
COPY --from=b node_modules /n
COPY src /src
`;
    expect(find(source, 'CopyIgnoredFile', { ignoreFile }).map((d) => [d.line, d.message])).toEqual(
      [
        [3, 'Attempting to Copy file "node_modules/x" that is excluded by .dockerignore'],
        [4, 'Attempting to Copy file "logs/app.log" that is excluded by .dockerignore'],
        [5, 'Attempting to Add file "secret1.txt" that is excluded by .dockerignore']
      ]
    );
    expect(find(source.slice(on.length), 'CopyIgnoredFile', { ignoreFile })).toEqual([]);
  });

  it('check=error=true makes it an error like BuildKit’s other checks', () => {
    const source = '# check=experimental=all;error=true\nFROM a:1\nCOPY dist/x /x\n';
    expect(find(source, 'CopyIgnoredFile', { ignoreFile })[0]).toMatchObject({ severity: 'error' });
  });
});
