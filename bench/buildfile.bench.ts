/**
 * Build-file parsing: a generated 1,000-line multi-stage build file (global ARGs, stages built
 * FROM each other, COPY --from, RUN --mount, continuations with comments, heredocs, ENV/LABEL
 * pairs, JSON forms) parsed, modelled and linted (every check) 200 times after a warm-up; prints
 * median and p95 ms of parse + model, and of parse + model + lint (issue 10's target: ≤ 5 ms median).
 * Run: `node bench/buildfile.bench.ts` (no server, engine or browser needed).
 */
import { lintBuildFile } from '../src/lib/buildfile/lint/index.ts';
import { buildModel } from '../src/lib/buildfile/model.ts';
import { parse } from '../src/lib/buildfile/parser.ts';

const LINES = 1_000;
const RUNS = 200;
const WARMUP = 20;

/** One stage of about 40 lines, in the styles real build files mix. */
function stage(i: number): string[] {
  const from = i === 0 ? 'node:${NODE}-slim' : `stage${i - 1}`;
  return [
    `# Stage ${i}: build step ${i}`,
    `FROM --platform=$BUILDPLATFORM ${from} AS stage${i}`,
    `ARG NODE`,
    `ARG VERSION=1.${i}.0`,
    `ENV APP_HOME=/srv/app${i} PORT=${3000 + i} \\`,
    `    MODE="production" PATH=/srv/app${i}/bin:$PATH`,
    `LABEL org.opencontainers.image.version="\${VERSION}" stage=${i}`,
    `WORKDIR \${APP_HOME}`,
    `COPY --chown=node:node package.json package-lock.json ./`,
    `RUN --mount=type=cache,target=/root/.npm,sharing=locked \\`,
    `    # install exactly what the lock file says`,
    `    npm ci --omit=dev && \\`,
    `    npm cache verify`,
    i === 0
      ? `COPY --from=busybox:1.36 /bin/busybox ./vendor/`
      : `COPY --from=stage${i - 1} /srv/app${i - 1}/dist ./vendor/`,
    `RUN <<EOF`,
    `set -eu`,
    `echo "building ${i}" > /tmp/build-${i}.log`,
    `for f in a b c; do echo "$f"; done`,
    `EOF`,
    `COPY <<-"CONF" /etc/app${i}.conf`,
    `\tlisten \${PORT}`,
    `\tmode \${MODE}`,
    `\tCONF`,
    `RUN apt-get update \\`,
    `    && apt-get install -y --no-install-recommends \\`,
    `       ca-certificates \\`,
    `       curl \\`,
    `       tini \\`,
    `    && rm -rf /var/lib/apt/lists/*`,
    `ADD --checksum=sha256:0123456789abcdef https://example.com/tool-${i}.tar.gz /opt/`,
    `EXPOSE \${PORT} 9${String(i).padStart(3, '0')}/udp`,
    `USER node`,
    `HEALTHCHECK --interval=30s --timeout=3s CMD ["curl", "-f", "http://localhost:${3000 + i}/health"]`,
    `ONBUILD RUN echo "triggered by ${i}"`,
    `VOLUME ["/data${i}"]`,
    `SHELL ["/bin/bash", "-o", "pipefail", "-c"]`,
    `STOPSIGNAL SIGTERM`,
    `ENTRYPOINT ["tini", "--"]`,
    `CMD ["node", "server.js", "--port", "${3000 + i}"]`,
    ``
  ];
}

function generate(): string {
  const lines = ['# syntax=docker/dockerfile:1', '# check=skip=JSONArgsRecommended', 'ARG NODE=24'];
  // Whole stages (a cut could end inside a heredoc), then single RUN lines up to the count.
  for (let i = 0; lines.length + stage(i).length <= LINES; i++) lines.push(...stage(i));
  while (lines.length < LINES) lines.push(`RUN echo line ${lines.length}`);
  return lines.join('\n') + '\n';
}

const source = generate();
const check = parse(source);
if (check.errors.length > 0) throw new Error(`generated file refused: ${check.errors[0]!.message}`);

function measure(run: () => void): { median: number; p95: number } {
  for (let i = 0; i < WARMUP; i++) run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { median: at(0.5), p95: at(0.95) };
}

const diagnostics = lintBuildFile(source).diagnostics.length;
const model = measure(() => buildModel(parse(source)));
const lint = measure(() => lintBuildFile(source));
const ms = (value: number) => value.toFixed(2);

console.log(
  `buildfile: ${LINES} lines, ${check.instructions.length} instructions, ${diagnostics} diagnostics, ${RUNS} runs each:\n` +
    `  parse + model:        median ${ms(model.median)} ms, p95 ${ms(model.p95)} ms\n` +
    `  parse + model + lint: median ${ms(lint.median)} ms, p95 ${ms(lint.p95)} ms (target ≤ 5 ms median)`
);
