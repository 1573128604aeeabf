import { describe, expect, it } from 'vitest';
import { emptyDraft, fromDraft, parseBinding } from './create-draft';

describe('the container create draft', () => {
  it('turns every field into the create input', () => {
    const input = fromDraft(
      {
        ...emptyDraft(),
        image: ' berth-test/busybox:latest ',
        name: 'web',
        hostname: 'web-1',
        exposedPorts: '80, 53/udp',
        portBindings: '8080:80\n127.0.0.1:8443:443/tcp\n[::1]:9000:9000/udp',
        memoryMiB: '64',
        cpuShares: '512',
        restartPolicy: 'on-failure',
        env: 'A=1\n\nB=two words',
        cmd: 'sh\n-c\necho "a b"; sleep 1',
        labels: 'berth.test=run1\nrole=web=front'
      },
      'local',
      false
    );
    expect(input).toEqual({
      engine: 'local',
      image: 'berth-test/busybox:latest',
      name: 'web',
      hostname: 'web-1',
      exposedPorts: ['80/tcp', '53/udp'],
      portBindings: [
        { port: '80/tcp', hostPort: '8080' },
        { port: '443/tcp', hostPort: '8443', hostIp: '127.0.0.1' },
        { port: '9000/udp', hostPort: '9000', hostIp: '::1' }
      ],
      memory: 64 * 1024 * 1024,
      cpuShares: 512,
      restartPolicy: 'on-failure',
      env: ['A=1', 'B=two words'],
      cmd: ['sh', '-c', 'echo "a b"; sleep 1'],
      labels: { 'berth.test': 'run1', role: 'web=front' }
    });
  });

  it('sends admin-only options only for an admin', () => {
    const draft = {
      ...emptyDraft(),
      image: 'busybox',
      privileged: true,
      binds: '/srv:/data:ro',
      networkMode: 'host',
      pidMode: 'host',
      capAdd: 'net_admin, SYS_TIME'
    };
    expect(fromDraft(draft, 'local', false)).not.toHaveProperty('privileged');
    expect(fromDraft(draft, 'local', true)).toMatchObject({
      privileged: true,
      binds: ['/srv:/data:ro'],
      networkMode: 'host',
      pidMode: 'host',
      capAdd: ['NET_ADMIN', 'SYS_TIME']
    });
  });

  it('names the field that does not parse', () => {
    expect(() => parseBinding('80')).toThrow('port binding "80"');
    expect(() => fromDraft({ ...emptyDraft(), labels: 'nokey' }, 'local', false)).toThrow(
      'label "nokey" is not key=value'
    );
    expect(() => fromDraft({ ...emptyDraft(), memoryMiB: '-1' }, 'local', false)).toThrow(
      'Memory must be a positive number'
    );
  });
});
