import {
  skillDefinitionSchema,
  type SkillDefinition,
  type SkillSource
} from '$lib/contracts/skills';
import type { SkillDefinitionRow } from '../../db/repositories/skill-run.repository';

/** A defined skill in force, as the registry finds it. */
export interface ActiveDefinition {
  definition: SkillDefinition;
  source: Exclude<SkillSource, 'builtin'>;
  row: SkillDefinitionRow | null;
}

/**
 * Skill definitions from the config file (read-only) and from the console (SQLite). An id the
 * file declares wins over a console row of that id, which is kept and shown as shadowed. The
 * merged map is rebuilt on every change, so a saved, removed or reloaded skill is in force at
 * once.
 */
export class SkillDefinitions {
  #file = new Map<string, SkillDefinition>();
  readonly #rows = new Map<string, SkillDefinitionRow>();
  #active = new Map<string, ActiveDefinition>();

  constructor(fileSkills: SkillDefinition[], rows: SkillDefinitionRow[]) {
    for (const row of rows) this.#rows.set(row.id, row);
    this.apply(fileSkills);
  }

  /** A reload (system.reload): the file's skills follow it. */
  apply(fileSkills: SkillDefinition[]): void {
    this.#file = new Map(fileSkills.map((d) => [d.id, d]));
    this.#merge();
  }

  find(id: string): ActiveDefinition | undefined {
    return this.#active.get(id);
  }

  all(): ActiveDefinition[] {
    return [...this.#active.values()];
  }

  inFile(id: string): boolean {
    return this.#file.has(id);
  }

  row(id: string): SkillDefinitionRow | undefined {
    return this.#rows.get(id);
  }

  /** Console rows an id of the file shadows: kept, listed, never run. */
  shadowed(): SkillDefinitionRow[] {
    return [...this.#rows.values()].filter((r) => this.#file.has(r.id));
  }

  store(row: SkillDefinitionRow): void {
    this.#rows.set(row.id, row);
    this.#merge();
  }

  drop(id: string): void {
    this.#rows.delete(id);
    this.#merge();
  }

  #merge(): void {
    const merged = new Map<string, ActiveDefinition>();
    for (const [id, definition] of this.#file)
      merged.set(id, { definition, source: 'file', row: null });
    for (const row of this.#rows.values()) {
      if (merged.has(row.id)) continue;
      // A row a newer Berth wrote, or one no longer valid, stays stored but is not offered.
      const parsed = skillDefinitionSchema.safeParse(row.definition);
      if (parsed.success) merged.set(row.id, { definition: parsed.data, source: 'database', row });
    }
    this.#active = merged;
  }
}
