/**
 * Values BuildKit refuses when it builds: EXPOSE ports (ExposeInvalidPort), STOPSIGNAL names
 * (InvalidStopSignal) and HEALTHCHECK types, retries and durations (InvalidHealthcheck), each
 * checked once its variables expand.
 */

import { expand } from '../expand.ts';
import type { Scope } from '../model.ts';
import type { Instruction, Token } from '../types.ts';
import type { Add } from './practices.ts';

/** A word's expansion split at spaces; undefined when a variable in it is unset. */
export function words(token: Token, scope: Scope, escape: string): string[] | undefined {
  if (!token.value.includes('$')) return [token.value];
  const result = expand(token.value, (n) => scope.get(n)?.value, escape);
  if (result.error || result.unset.length > 0) return undefined;
  return result.value.split(/\s+/).filter(Boolean);
}

export function exposePorts(
  instruction: Instruction,
  scope: Scope,
  escape: string,
  add: Add
): void {
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

export function stopSignal(instruction: Instruction, scope: Scope, escape: string, add: Add): void {
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

export function healthcheck(instruction: Instruction, add: Add): void {
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
