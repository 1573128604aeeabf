/**
 * `berth buildfile lint FILE [--format json]`: the diagnostics of a build file, as
 * `FILE:LINE:COLUMN: severity rule: message` lines, or with `--format json` a JSON array of
 * `{rule, severity, message, line, column, endLine, endColumn, hint?, url?, fix?}`.
 * Exits 1 when any diagnostic is an error, 0 otherwise, 2 on a usage or file error.
 */
import { lintBuildFile } from '../lib/buildfile/lint/index.ts';
import type { Io } from './berth.ts';
import { readBuildFile } from './read-file.ts';

const USAGE = 'Usage: berth buildfile lint FILE [--format json]\n';

export function buildfileLint(args: string[], io: Io): number {
  let format = 'text';
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--format') format = args[++i] ?? '';
    else if (arg.startsWith('--format=')) format = arg.slice('--format='.length);
    else files.push(arg);
  }
  const [file] = files;
  if (file === undefined || files.length > 1 || (format !== 'text' && format !== 'json')) {
    io.err(USAGE);
    return 2;
  }
  const text = readBuildFile(file, io);
  if (text === undefined) return 2;
  const { diagnostics } = lintBuildFile(text);
  if (format === 'json') io.out(JSON.stringify(diagnostics, null, 2) + '\n');
  else {
    for (const d of diagnostics) {
      io.out(`${file}:${d.line}:${d.column}: ${d.severity} ${d.rule}: ${d.message}\n`);
    }
  }
  return diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}
