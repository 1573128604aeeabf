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
import { generateBuildFile } from './buildfile-source.ts';

const LINES = 1_000;
const RUNS = 200;
const WARMUP = 20;

const source = generateBuildFile(LINES);
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
