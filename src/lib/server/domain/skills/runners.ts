import type { EngineRegistry } from '../../engine/engine.registry';
import { ContainerRunner } from './container-runner';
import { HttpRunner } from './http-runner';

/** The runners of defined skills, one per kind. */
export function skillRunners(engines: EngineRegistry) {
  return { container: new ContainerRunner(engines), http: new HttpRunner() };
}
