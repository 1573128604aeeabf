import { EventEmitter } from 'node:events';
import type { Socket } from 'socket.io';
import { describe, expect, it } from 'vitest';
import { FeedOutboxes } from './feed-outboxes';

/** A socket whose engine.io write buffer the test fills and drains by hand. */
function slowSocket() {
  const conn = Object.assign(new EventEmitter(), { writeBuffer: [] as unknown[] });
  const sent: [string, unknown][] = [];
  const socket = {
    connected: true,
    conn,
    emit: (event: string, payload: unknown) => {
      sent.push([event, payload]);
      conn.writeBuffer.push(payload);
      return true;
    }
  };
  const drain = () => {
    conn.writeBuffer.length = 0;
    conn.emit('drain');
  };
  return { socket: socket as unknown as Socket, sent, conn, drain };
}

const channel = 'session:s1';
const delta = (text: string) => [{ channel, turnId: 't1', text }] as const;

describe('feed outboxes', () => {
  it('join the deltas of a socket that reads slowly, and send them before the next message', () => {
    const s = slowSocket();
    const feeds = new FeedOutboxes(() => s.socket);
    for (let i = 0; i < 32; i++) feeds.deliver(channel, 'chat.delta', [...delta('a')], ['m']);
    expect(s.sent).toHaveLength(32);
    // The buffer is full: the next pieces wait, joined, and cost one held string.
    for (let i = 0; i < 1000; i++) feeds.deliver(channel, 'chat.delta', [...delta('b')], ['m']);
    expect(s.sent).toHaveLength(32);
    expect(feeds.held).toBe(1000);
    const message = {
      channel,
      message: { messageId: 'x', turnId: 't1', role: 'assistant', content: 'done', userId: null }
    };
    feeds.deliver(channel, 'chat.message', [message], ['m']);
    expect(s.sent.slice(32)).toEqual([
      ['chat.delta', { channel, turnId: 't1', text: 'b'.repeat(1000) }],
      ['chat.message', message]
    ]);
    expect(feeds.held).toBe(0);
  });

  it('send held deltas when the socket drains, and forget them when it leaves', () => {
    const s = slowSocket();
    const feeds = new FeedOutboxes(() => s.socket);
    s.conn.writeBuffer.push(...Array.from({ length: 40 }, () => null));
    feeds.deliver(channel, 'chat.delta', [...delta('x')], ['m']);
    feeds.deliver(channel, 'chat.delta', [...delta('y')], ['m']);
    expect(s.sent).toEqual([]);
    s.drain();
    expect(s.sent).toEqual([['chat.delta', { channel, turnId: 't1', text: 'xy' }]]);
    s.conn.writeBuffer.push(...Array.from({ length: 40 }, () => null));
    feeds.deliver(channel, 'chat.delta', [...delta('z')], ['m']);
    feeds.close('m', channel);
    expect(feeds.held).toBe(0);
    expect(s.conn.listenerCount('drain')).toBe(0);
  });

  it('drop timeline rows past the backlog and say how many before the next one', () => {
    const s = slowSocket();
    const feeds = new FeedOutboxes(() => s.socket);
    const item = (id: string) => [{ channel: 'activity', item: { id } }] as never;
    s.conn.writeBuffer.push(...Array.from({ length: 256 }, () => null));
    for (let i = 0; i < 5; i++) feeds.deliver('activity', 'activity.item', item(`r${i}`), ['m']);
    expect(s.sent).toEqual([]);
    s.drain();
    feeds.deliver('activity', 'activity.item', item('r5'), ['m']);
    expect(s.sent).toEqual([
      ['activity.gap', { channel: 'activity', missed: 5 }],
      ['activity.item', { channel: 'activity', item: { id: 'r5' } }]
    ]);
  });

  it('leave other events to the room', () => {
    const feeds = new FeedOutboxes(() => undefined);
    expect(feeds.deliver('agents', 'agent.changed', [{} as never], ['m'])).toBe(false);
  });
});
