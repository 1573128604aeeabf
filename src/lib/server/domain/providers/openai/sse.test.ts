import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './openai.http';
import { sseData } from './sse';
import { ToolNames } from './tool-names';

const bytes = (...parts: string[]) => parts.map((p) => new TextEncoder().encode(p));

async function events(parts: Uint8Array[]): Promise<string[]> {
  const out: string[] = [];
  for await (const data of sseData(parts)) out.push(data);
  return out;
}

describe('sseData', () => {
  it('reads events split anywhere, with any line ending, comments and multi-line data', async () => {
    const text =
      ': keep-alive\r\ndata: {"a":1}\r\n\r\ndata:{"b":\ndata: 2}\n\nevent: x\rdata: [DONE]\r\r';
    // Every split point, one byte at a time included: the result is the same.
    for (let cut = 0; cut <= text.length; cut++)
      expect(await events(bytes(text.slice(0, cut), text.slice(cut)))).toEqual([
        '{"a":1}',
        '{"b":\n2}',
        '[DONE]'
      ]);
    expect(await events(bytes(...text.split('')))).toEqual(['{"a":1}', '{"b":\n2}', '[DONE]']);
  });

  it('keeps a multi-byte character cut between chunks, and ends a last event without a blank line', async () => {
    const all = new TextEncoder().encode('data: héllo\n\ndata: end');
    expect(await events([all.slice(0, 8), all.slice(8)])).toEqual(['héllo', 'end']);
  });
});

describe('ToolNames', () => {
  it('maps skill ids to OpenAI tool names both ways, without clashes', () => {
    const long = 'x'.repeat(70);
    const names = new ToolNames(['echo', 'engine.containers', 'engine_containers', long, 'a b']);
    expect(names.tool('echo')).toBe('echo');
    expect(names.tool('engine.containers')).toBe('engine_containers');
    expect(names.tool('engine_containers')).toBe('engine_containers_2');
    expect(names.tool(long)).toBe('x'.repeat(64));
    expect(names.tool('a b')).toBe('a_b');
    for (const id of ['echo', 'engine.containers', 'engine_containers', long, 'a b']) {
      expect(names.tool(id)).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(names.skill(names.tool(id)!)).toBe(id);
    }
    expect(names.skill('nothing')).toBeUndefined();
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
  });
});
