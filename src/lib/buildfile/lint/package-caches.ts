/**
 * PackageCacheNotRemoved: apt, apk, yum/dnf, pip and npm installs that leave their cache in the
 * layer (not removed in the same RUN, no cache mount, no --no-cache option), with the option
 * inserted as the fix where the command is one line.
 */

import type { Instruction } from '../types.ts';
import type { Finding } from './finding.ts';
import type { Add } from './practices.ts';

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

export function packageCaches(run: Instruction, add: Add): void {
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
