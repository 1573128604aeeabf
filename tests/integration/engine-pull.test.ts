import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/berth';
import { actors, buildTestImage, engineDomain, removeLabelled } from './helpers/engine';

/**
 * Pull from a real registry on loopback (Debian's docker-registry, htpasswd auth): a test image
 * is pushed with the docker CLI (its own config folder), untagged, then pulled back through
 * Berth, which sends the credentials kept on the server as X-Registry-Auth.
 */
const USER = 'berth';
const PASSWORD = 'pull-secret-123';
const dir = mkdtempSync(join(tmpdir(), 'berth-registry-'));
let registry: ChildProcess;
let server = '';
let remoteName = '';
const plain = engineDomain();
const { runId, label } = plain;
const local = `berth-test/engine-p-${runId}:v1`;
const engine = 'local';

const docker = (...args: string[]) =>
  execFileSync('docker', ['--config', join(dir, 'docker'), ...args], {
    stdio: 'pipe',
    encoding: 'utf8'
  });

beforeAll(async () => {
  const port = await freePort();
  server = `127.0.0.1:${port}`;
  remoteName = `${server}/berth-test/pulled-${runId}`;
  writeFileSync(join(dir, 'htpasswd'), execFileSync('htpasswd', ['-Bbn', USER, PASSWORD]));
  writeFileSync(
    join(dir, 'config.yml'),
    [
      'version: 0.1',
      'log: { level: error }',
      `storage: { filesystem: { rootdirectory: ${join(dir, 'data')} } }`,
      `http: { addr: "${server}" }`,
      `auth: { htpasswd: { realm: berth-test, path: ${join(dir, 'htpasswd')} } }`,
      ''
    ].join('\n')
  );
  registry = spawn('/usr/bin/docker-registry', ['serve', join(dir, 'config.yml')], {
    stdio: 'ignore'
  });
  for (let i = 0; i < 100; i++) {
    const status = await fetch(`http://${server}/v2/`).then(
      (r) => r.status,
      () => 0
    );
    if (status === 401) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  buildTestImage(local, label);
  execFileSync(
    'docker',
    ['--config', join(dir, 'docker'), 'login', server, '-u', USER, '--password-stdin'],
    {
      input: PASSWORD,
      stdio: ['pipe', 'pipe', 'pipe']
    }
  );
  docker('tag', local, `${remoteName}:v1`);
  docker('push', `${remoteName}:v1`);
  docker('rmi', `${remoteName}:v1`);
}, 60_000);

afterAll(() => {
  removeLabelled(label);
  plain.domain.close();
  registry?.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe('pull from a private registry', () => {
  it('is refused without credentials, in words', async () => {
    await expect(
      plain.domain.engine.images.pullAndWait(actors.operator, {
        engine,
        fromImage: remoteName,
        tag: 'v1'
      })
    ).rejects.toThrow(
      `the registry refused the pull of image ${remoteName}:v1: credentials missing or wrong`
    );
  });

  it('is refused with a wrong password', async () => {
    const wrong = engineDomain(undefined, {
      registries: [{ server, username: USER, password: 'nope' }]
    });
    try {
      await expect(
        wrong.domain.engine.images.pullAndWait(actors.operator, {
          engine,
          fromImage: remoteName,
          tag: 'v1'
        })
      ).rejects.toThrow('credentials missing or wrong');
    } finally {
      wrong.domain.close();
    }
  });

  it('pulls with the credentials kept on the server (X-Registry-Auth)', async () => {
    const { domain } = engineDomain(undefined, {
      registries: [{ server, username: USER, password: PASSWORD }]
    });
    try {
      await expect(
        domain.engine.images.inspect(actors.viewer, { engine, name: `${remoteName}:v1` })
      ).rejects.toThrow('no such image');
      await expect(
        domain.engine.images.pullAndWait(actors.viewer, {
          engine,
          fromImage: remoteName,
          tag: 'v1'
        })
      ).rejects.toThrow('Needs the operator role');
      const pulled = await domain.engine.images.pullAndWait(actors.operator, {
        engine,
        fromImage: remoteName,
        tag: 'v1'
      });
      expect(pulled.status).toMatch(/Downloaded newer image|Image is up to date/);
      const details = (await domain.engine.images.inspect(actors.viewer, {
        engine,
        name: `${remoteName}:v1`
      })) as {
        RepoTags: string[];
      };
      expect(details.RepoTags).toContain(`${remoteName}:v1`);
      const audit = domain.audit.list(5)[0];
      expect(audit).toMatchObject({ action: 'engine.image.pull', detail: { authenticated: true } });
      expect(JSON.stringify(audit)).not.toContain(PASSWORD);
    } finally {
      domain.close();
    }
  });
});

describe('a container skill whose image the engine lacks', () => {
  it('pulls it with the kept credentials first, as docker run does, and says so in its log', async () => {
    const image = `${remoteName}:v1`;
    const skill = (id: string, from: string) => ({
      id,
      kind: 'container',
      image: from,
      command: ['sh', '-c', 'cat'],
      timeoutMs: 30_000
    });
    const { domain } = engineDomain(undefined, {
      registries: [{ server, username: USER, password: PASSWORD }],
      skills: [skill('pulled-echo', image), skill('nowhere-echo', `${remoteName}-missing:v1`)]
    });
    try {
      docker('rmi', '-f', image);
      const by = { trigger: 'test', actor: null };
      const run = await domain.skills.start('pulled-echo', { say: 'hi' }, by).done;
      expect(run).toMatchObject({ status: 'completed', output: { say: 'hi' }, exitCode: 0 });
      expect(run.logs).toContain(`pulling ${image}: the engine does not have it`);
      expect(run.logs).toMatch(/Downloaded newer image/);
      expect(docker('image', 'inspect', '--format', '{{.Id}}', image).trim()).toMatch(/^sha256:/);
      // Present now: the next run does not pull.
      const again = await domain.skills.start('pulled-echo', {}, by).done;
      expect(again.status).toBe('completed');
      expect(again.logs ?? '').not.toContain('pulling');

      const missing = await domain.skills.start('nowhere-echo', {}, by).done;
      expect(missing.status).toBe('failed');
      expect(missing.error).toBe(`no such image ${remoteName}-missing:v1, here or in its registry`);
    } finally {
      domain.close();
    }
  }, 60_000);
});
