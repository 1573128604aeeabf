import { turnItem } from '$lib/contracts/chat';
import type { DomainBus } from '../../domain/bus';
import type { ActivityService } from '../../domain/chat/activity.service';
import type { Publish, Stop } from '../channel-hub';

/** `session:<id>`: that session's new messages, reply deltas and turn changes, nothing else. */
export function sessionSource(bus: DomainBus) {
  return (sessionId: string, publish: Publish): Stop => {
    const channel = `session:${sessionId}`;
    const offs = [
      bus.on('message.created', (m) => {
        if (m.sessionId !== sessionId) return;
        const { messageId, turnId, role, content, userId } = m;
        publish('chat.message', {
          channel,
          message: { messageId, turnId, role, content, userId }
        });
      }),
      bus.on('message.delta', (d) => {
        if (d.sessionId === sessionId)
          publish('chat.delta', { channel, turnId: d.turnId, text: d.text });
      }),
      bus.on('turn.changed', (turn) => {
        if (turn.sessionId === sessionId) publish('chat.turn', { channel, turn });
      })
    ];
    return () => offs.forEach((off) => off());
  };
}

/** `activity`: every turn and system event as a small timeline row; the page filters. */
export function activitySource(bus: DomainBus, activity: ActivityService) {
  return (_: undefined, publish: Publish): Stop => {
    const channel = 'activity';
    const offs = [
      bus.on('turn.changed', (turn) => publish('activity.item', { channel, item: turnItem(turn) })),
      bus.on('event.changed', (event) =>
        publish('activity.item', { channel, item: activity.eventItem(event) })
      )
    ];
    return () => offs.forEach((off) => off());
  };
}
