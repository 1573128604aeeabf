import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hook, openDb, TOKEN, until } from '../fixtures/webhooks';
import { startBerth, type Berth } from './helpers/berth';
import { berthConfig, OPS, rpcToken } from './helpers/config';
import { callRpc } from './helpers/rpc';
import { TURN_INPUT } from './helpers/turns';

const SKILL = '/skill echo {"x":1}';

type Row = Record<string, unknown>;

/** Text from webhooks and system events is content; commands are for operators' own turns. */
describe('external input never runs as a command', () => {
  let berth: Berth;
  let db: Database.Database;
  const turn = (id: unknown) =>
    db.prepare(`select *, ${TURN_INPUT} input from turns where id = ?`).get(id) as Row;
  const completed = (id: unknown) => until(() => turn(id)?.state === 'completed' && turn(id));
  const skillRuns = (turnId: unknown) =>
    (
      db
        .prepare('select count(*) n from skill_runs where trigger = ?')
        .get(`turn:${String(turnId)}`) as {
        n: number;
      }
    ).n;

  beforeAll(async () => {
    berth = await startBerth({
      config: berthConfig({
        rpcTokens: [rpcToken('ops', OPS)],
        webhookToken: TOKEN,
        webhooks: { mappings: { relay: { message: '{body.text}' } } }
      })
    });
    db = openDb(berth.dataDir);
  });
  afterAll(async () => {
    db?.close();
    await berth?.stop();
  });

  it('a wake event carrying /skill is noted, not run', async () => {
    const reply = await hook(berth.port, '/hooks/wake', { text: SKILL, mode: 'now' });
    expect(reply.status).toBe(200);
    const event = await until(() => {
      const row = db
        .prepare('select state, turn_id from system_event_states where id = ?')
        .get(reply.json.eventId) as Row;
      return row.state === 'done' && row;
    });
    const row = turn(event.turn_id);
    expect(row).toMatchObject({ source: 'heartbeat', trust: 'external' });
    expect(row.input).toBe(`System events:\n- ${SKILL}`);
    expect(row.result).toBe('Noted 1 system event.');
    expect(skillRuns(event.turn_id)).toBe(0);
  });

  it('/hooks/agent and a mapping carrying /skill or help are acknowledged as content', async () => {
    const sent = [
      await hook(berth.port, '/hooks/agent', { message: SKILL }),
      await hook(berth.port, '/hooks/relay', { text: SKILL }),
      await hook(berth.port, '/hooks/agent', { message: 'help' })
    ];
    for (const reply of sent) {
      expect(reply.status).toBe(200);
      const row = await completed(reply.json.turnId);
      expect(row.trust).toBe('external');
      expect(row.result).toMatch(/^Received external content: “(\/skill echo|help)/);
      expect(row.result).not.toMatch(/returned|offline and understand/);
      expect(skillRuns(reply.json.turnId)).toBe(0);
    }
    expect(turn(sent[1]!.json.turnId).input).toBe(SKILL);
  });

  it('the same text from an RPC token still runs the skill', async () => {
    const { result } = await callRpc<{ turnId: string }>(berth, OPS, 'agent.sendMessage', {
      agentName: 'main',
      channel: 'cli',
      userId: 'me',
      message: SKILL
    });
    const row = await completed(result!.turnId);
    expect(row.trust).toBe('operator');
    expect(row.result).toBe('Skill echo returned: {"x":1}');
    expect(skillRuns(result!.turnId)).toBe(1);
  });
});
