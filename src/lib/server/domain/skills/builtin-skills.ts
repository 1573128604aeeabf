import { z } from 'zod';
import { listContainers } from '../../engine/containers';
import type { EngineClient } from '../../engine/engine.client';

export interface BuiltinSkill {
  id: string;
  name: string;
  description: string;
  params: z.ZodType<Record<string, unknown>>;
  /** `log` prints a line to the run's live logs (the console's `skill.run:<id>` channel). */
  run(
    params: Record<string, unknown>,
    signal: AbortSignal,
    log: (stream: 'stdout' | 'stderr' | 'system', text: string) => void
  ): Promise<unknown>;
}

/** Skills that ship with Berth and need nothing installed. */
export function builtinSkills(engine: EngineClient): BuiltinSkill[] {
  return [
    {
      id: 'echo',
      name: 'Echo',
      description: 'Returns its parameters unchanged: a quick way to test triggers.',
      params: z.record(z.string(), z.unknown()),
      run: (params) => Promise.resolve(params)
    },
    {
      id: 'engine.containers',
      name: 'List containers',
      description: 'Lists containers on the engine (read-only): id, name, image, state, status.',
      params: z.strictObject({ all: z.boolean().default(true) }),
      run: async (params) => {
        const list = await listContainers(engine, { all: params.all === true, filters: {} });
        return list.map((c) => ({
          id: c.Id.slice(0, 12),
          name: (c.Names[0] ?? '').replace(/^\//, ''),
          image: c.Image,
          state: c.State,
          status: c.Status
        }));
      }
    }
  ];
}
