import { describe, expect, it } from 'vitest';
import { ContainerLogChannel } from './container-log-channel.svelte';

describe('the container log channel’s resume point', () => {
  it('starts with the default tail and resumes after the last line, counting equal times', () => {
    const channel = new ContainerLogChannel('local', 'web', 'web', () => undefined);
    expect(channel.joinOptions()).toEqual({});
    channel.track([
      { stream: 'stdout', ts: '2026-01-01T00:00:01.000000001Z', line: 'a' },
      { stream: 'stderr', ts: '2026-01-01T00:00:02.000000002Z', line: 'b' },
      { stream: 'stdout', ts: '2026-01-01T00:00:02.000000002Z', line: 'c' },
      { stream: 'stdout', line: 'no time' }
    ]);
    expect(channel.joinOptions()).toEqual({ since: '2026-01-01T00:00:02.000000002Z', seen: 2 });
    channel.track([{ stream: 'stdout', ts: '2026-01-01T00:00:03Z', line: 'd' }]);
    expect(channel.joinOptions()).toEqual({ since: '2026-01-01T00:00:03Z', seen: 1 });
  });
});
