import type { EngineRegistry } from '../../engine/engine.registry';
import type { RegistryCredential } from '../engine/registry-auth';
import { ContainerRunner } from './container-runner';
import { HttpRunner } from './http-runner';

/** The runners of defined skills, one per kind. */
export function skillRunners(
  engines: EngineRegistry,
  registries: () => readonly RegistryCredential[] = () => []
) {
  return { container: new ContainerRunner(engines, registries), http: new HttpRunner() };
}
