import type { ContainerCreate } from '$lib/contracts/engine';

/** The create form as typed: text fields, one entry per line where a list is asked for. */
export interface CreateDraft {
  image: string;
  name: string;
  hostname: string;
  /** `80/tcp 443/tcp` (spaces or commas). */
  exposedPorts: string;
  /** One per line: `[hostIp:]hostPort:port/proto`. */
  portBindings: string;
  /** MiB. */
  memoryMiB: string;
  cpuShares: string;
  restartPolicy: '' | 'no' | 'always' | 'unless-stopped' | 'on-failure';
  /** One `NAME=value` per line. */
  env: string;
  /** One argument per line, so spaces and quotes need no escaping. */
  cmd: string;
  /** One `key=value` per line. */
  labels: string;
  privileged: boolean;
  /** One `source:target[:mode]` per line. */
  binds: string;
  networkMode: string;
  pidMode: string;
  /** `NET_ADMIN SYS_TIME` (spaces or commas). */
  capAdd: string;
}

export const emptyDraft = (): CreateDraft => ({
  image: '',
  name: '',
  hostname: '',
  exposedPorts: '',
  portBindings: '',
  memoryMiB: '',
  cpuShares: '',
  restartPolicy: '',
  env: '',
  cmd: '',
  labels: '',
  privileged: false,
  binds: '',
  networkMode: '',
  pidMode: '',
  capAdd: ''
});

type CreateInput = Omit<
  ContainerCreate,
  'engine' | 'exposedPorts' | 'portBindings' | 'env' | 'labels' | 'privileged' | 'binds' | 'capAdd'
> &
  Partial<Pick<ContainerCreate, 'engine' | 'privileged' | 'binds' | 'capAdd'>> &
  Pick<ContainerCreate, 'exposedPorts' | 'portBindings' | 'env' | 'labels'>;

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
const words = (text: string) => text.split(/[\s,]+/).filter(Boolean);
const withProto = (port: string) => (port.includes('/') ? port : `${port}/tcp`);

/** A port binding line: `8080:80`, `8080:80/udp`, `127.0.0.1:8080:80/tcp`, `[::1]:8080:80`. */
export function parseBinding(line: string): ContainerCreate['portBindings'][number] {
  const m = /^(?:(\[[0-9a-fA-F:]+\]|[0-9.]+):)?(\d{1,5}):(\d{1,5}(?:\/(?:tcp|udp|sctp))?)$/.exec(
    line
  );
  if (!m) throw new Error(`port binding "${line}" is not [hostIp:]hostPort:port[/proto]`);
  const hostIp = m[1]?.replace(/^\[|\]$/g, '');
  return { port: withProto(m[3]!), hostPort: m[2]!, ...(hostIp && { hostIp }) };
}

function parseLabels(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines(text)) {
    const eq = line.indexOf('=');
    if (eq < 1) throw new Error(`label "${line}" is not key=value`);
    out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

function positiveInt(text: string, what: string): number | undefined {
  if (!text.trim()) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${what} must be a positive number`);
  return Math.round(n);
}

/**
 * The tRPC input for a draft; throws a sentence naming the field that does not parse. The
 * admin-only options are left out unless `admin`: the server refuses them anyway, this only
 * keeps a stale value from being sent.
 */
export function fromDraft(d: CreateDraft, engine: string, admin: boolean): CreateInput {
  const memory = positiveInt(d.memoryMiB, 'Memory');
  const input: CreateInput = {
    engine,
    image: d.image.trim(),
    name: d.name.trim() || undefined,
    hostname: d.hostname.trim() || undefined,
    exposedPorts: words(d.exposedPorts).map(withProto),
    portBindings: lines(d.portBindings).map(parseBinding),
    memory: memory === undefined ? undefined : memory * 1024 * 1024,
    cpuShares: positiveInt(d.cpuShares, 'CPU shares'),
    restartPolicy: d.restartPolicy || undefined,
    env: lines(d.env),
    cmd: lines(d.cmd).length ? d.cmd.split('\n').filter((a) => a.trim()) : undefined,
    labels: parseLabels(d.labels)
  };
  if (!admin) return input;
  return {
    ...input,
    privileged: d.privileged,
    binds: lines(d.binds),
    networkMode: d.networkMode.trim() || undefined,
    pidMode: d.pidMode.trim() || undefined,
    capAdd: words(d.capAdd).map((c) => c.toUpperCase())
  };
}
