/**
 * A generated multi-stage build file in the styles real ones mix (global ARGs, stages built
 * FROM each other, COPY --from, RUN --mount, continuations with comments, heredocs, ENV/LABEL
 * pairs, JSON forms): the input of bench/buildfile.bench.ts and the editor's bench and harness.
 */

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

/** A build file of exactly `count` lines (whole stages, then single RUN lines). */
export function generateBuildFile(count: number): string {
  const lines = ['# syntax=docker/dockerfile:1', '# check=skip=JSONArgsRecommended', 'ARG NODE=24'];
  // Whole stages (a cut could end inside a heredoc), then single RUN lines up to the count.
  for (let i = 0; lines.length + stage(i).length <= count; i++) lines.push(...stage(i));
  while (lines.length < count) lines.push(`RUN echo line ${lines.length}`);
  return lines.join('\n') + '\n';
}
