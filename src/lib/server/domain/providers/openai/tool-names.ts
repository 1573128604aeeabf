const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Skill ids as OpenAI tool names, which must match `^[a-zA-Z0-9_-]{1,64}$`: other characters
 * become `_` (`engine.containers` → `engine_containers`), long ids are cut, and a clash gets a
 * numbered suffix. Both ways are kept, so a tool call finds its skill again.
 */
export class ToolNames {
  readonly #bySkill = new Map<string, string>();
  readonly #byTool = new Map<string, string>();

  constructor(skillIds: string[]) {
    for (const id of skillIds) {
      const base = NAME.test(id) ? id : id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'tool';
      let name = base;
      for (let n = 2; this.#byTool.has(name); n++) {
        const suffix = `_${n}`;
        name = `${base.slice(0, 64 - suffix.length)}${suffix}`;
      }
      this.#bySkill.set(id, name);
      this.#byTool.set(name, id);
    }
  }

  tool(skillId: string): string | undefined {
    return this.#bySkill.get(skillId);
  }

  skill(toolName: string): string | undefined {
    return this.#byTool.get(toolName);
  }
}
