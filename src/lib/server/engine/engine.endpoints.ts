/**
 * The engine endpoints Berth may reach: the spec's (doc 2), and an exec's resize and inspect. Every request goes
 * through EngineClient.call, which refuses a path missing here, so no console or tRPC input can
 * reach /plugins, /swarm, /secrets or any other engine path.
 */
const ID = '[A-Za-z0-9][A-Za-z0-9_.-]*';
const IMAGE = '[A-Za-z0-9][A-Za-z0-9_.:/@-]*';

const table: [string, string][] = [
  ['GET', '/containers/json'],
  ['POST', '/containers/create'],
  ['POST', `/containers/${ID}/(start|stop|restart|kill|pause|unpause)`],
  ['GET', `/containers/${ID}/(json|logs|top|changes|stats)`],
  ['POST', `/containers/${ID}/exec`],
  ['POST', '/exec/[a-f0-9]{64}/start'],
  // Beyond the spec's exec create and start: the console's terminal is resizable (issue 9) and
  // shows the exit code, which need the exec's own resize and inspect, for an exec id only.
  ['POST', '/exec/[a-f0-9]{64}/resize'],
  ['GET', '/exec/[a-f0-9]{64}/json'],
  // A container skill's run (`docker run --rm -i`): attached with stdin before it starts, and
  // waited for; by the full id create answered only, never a name.
  ['POST', '/containers/[a-f0-9]{64}/(attach|wait)'],
  ['DELETE', `/containers/${ID}`],
  ['POST', '/containers/prune'],
  ['GET', '/images/json'],
  ['POST', '/images/create'],
  ['POST', '/build'],
  ['GET', `/images/${IMAGE}/(json|history)`],
  ['DELETE', `/images/${IMAGE}`],
  ['POST', '/images/prune'],
  ['GET', '/networks'],
  ['GET', `/networks/${ID}`],
  ['POST', '/networks/create'],
  ['POST', `/networks/${ID}/(connect|disconnect)`],
  ['DELETE', `/networks/${ID}`],
  ['POST', '/networks/prune'],
  ['GET', '/volumes'],
  ['POST', '/volumes/create'],
  ['GET', `/volumes/${ID}`],
  ['DELETE', `/volumes/${ID}`],
  ['POST', '/volumes/prune'],
  ['GET', '/(info|version|_ping|events)'],
  ['GET', '/system/df']
];

const allowed = table.map(([method, path]) => ({ method, path: new RegExp(`^${path}$`) }));

/** The spec's system prune is done with the four prune endpoints above, never /system/prune. */
export function isAllowedEndpoint(method: string, path: string): boolean {
  if (path.includes('..')) return false;
  return allowed.some((e) => e.method === method && e.path.test(path));
}
