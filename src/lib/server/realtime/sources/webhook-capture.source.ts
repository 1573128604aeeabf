import type { WebhookCaptureService } from '../../domain/webhooks/webhook-capture.service';
import type { Publish, SourceHandle } from '../channel-hub';

/**
 * `webhook.capture:<id>`: the capture's delivery the moment it arrives (at once when it came
 * before the join), then `webhook.capture.ended` when it expires or is closed.
 */
export function webhookCaptureSource(captures: WebhookCaptureService) {
  return (id: string, publish: Publish): SourceHandle => {
    const channel = `webhook.capture:${id}`;
    const follow = (send: Publish) =>
      captures.watch(id, {
        delivered: (delivery) => send('webhook.captured', { channel, delivery }),
        ended: (reason) => send('webhook.capture.ended', { channel, reason })
      });
    const stop = follow(publish);
    // A second tab of the same opener: only what it missed (the delivery so far, or the end).
    return { stop, welcome: (_options, send) => follow(send)() };
  };
}
