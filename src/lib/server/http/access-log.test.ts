import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * Runs `body` in a fresh Node with `log` from createLogger (Berth's logger on stdout) and
 * `access`, an AccessLog on it; its stdout lines as written.
 */
function rawLines(level: string, body: string): string[] {
  const logger = new URL('../logger.ts', import.meta.url).href;
  const accessLog = new URL('./access-log.ts', import.meta.url).href;
  const script = `Promise.all([import(${JSON.stringify(logger)}), import(${JSON.stringify(accessLog)})])
    .then(([{ createLogger }, { AccessLog }]) => {
      const log = createLogger(${JSON.stringify(level)});
      const access = new AccessLog(log);
      ${body}
      log.flush(() => process.exit(0));
    });`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8'
  });
  expect(run.stderr).not.toMatch(/Error/);
  return run.stdout.split('\n').filter(Boolean);
}

/** Each case once through pino's child logger and once through AccessLog. */
const CASES = [
  ['webhook', 'POST', '/hooks/wake', 200, 0.12, 'webhook'],
  ['rpc', 'POST', '/rpc', 401, 3, null],
  ['rest', 'GET', '/v1/agents/:name', 200, 12.5, 'ops "east" \u00e9\u2028'],
  ['rest', 'M"\\E', '/v1/x', 405, 0, 'k']
] as const;

describe('AccessLog', () => {
  it("writes the line pino's own child logger writes, byte for byte, whatever the strings hold", () => {
    const lines = rawLines(
      'info',
      `const cases = ${JSON.stringify(CASES)};
      for (const [iface, method, route, status, ms, credential] of cases) {
        log.child({ interface: iface, method, route }).info({ status, ms, credential }, 'request');
        access.write(iface, method, route, status, ms, credential);
      }`
    );
    expect(lines).toHaveLength(CASES.length * 2);
    // The clock may tick between the two: times are compared apart.
    const time = /"time":(\d+)/;
    for (let i = 0; i < lines.length; i += 2) {
      const [pinos, ours] = [lines[i]!, lines[i + 1]!];
      expect(ours.replace(time, '"time":0')).toBe(pinos.replace(time, '"time":0'));
      const at = (line: string) => Number(time.exec(line)![1]);
      expect(at(ours) - at(pinos)).toBeGreaterThanOrEqual(0);
      expect(at(ours) - at(pinos)).toBeLessThan(1000);
    }
    expect(JSON.parse(lines[1]!)).toMatchObject({ app: 'berth', route: '/hooks/wake', ms: 0.12 });
  });

  it('keeps lines right past the pairs it remembers, and writes none below info', () => {
    const many = rawLines(
      'info',
      `for (let i = 0; i < 300; i++) access.write('rest', 'GET', '/r' + i, 200, 1, null);
      access.write('rest', 'GET', '/r299', 204, 2, 'again');`
    ).map((line) => JSON.parse(line) as { route: string; status: number; credential: unknown });
    expect(many).toHaveLength(301);
    expect(many[299]).toMatchObject({ route: '/r299', status: 200, credential: null });
    expect(many[300]).toMatchObject({ route: '/r299', status: 204, credential: 'again' });
    expect(rawLines('warn', `access.write('rest', 'GET', '/v1/agents', 200, 1, null);`)).toEqual(
      []
    );
  });
});
