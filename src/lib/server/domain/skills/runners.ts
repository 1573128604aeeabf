import type { EngineRegistry } from '../../engine/engine.registry';
import { SkillFailure, type SkillRunners } from './skill-runner';

/** The runners of defined skills, one per kind. */
export function skillRunners(_engines: EngineRegistry): SkillRunners {
  return {
    container: { run: () => Promise.reject(new SkillFailure('container skills cannot run yet')) },
    http: { run: () => Promise.reject(new SkillFailure('http skills cannot run yet')) }
  };
}
