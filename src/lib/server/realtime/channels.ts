import {
  CHANNELS,
  type ChannelKind,
  type ChannelParams,
  type JoinOptions
} from '$lib/contracts/realtime';
import type { DomainBus } from '../domain/bus';
import type { BuildService } from '../domain/buildfiles/build.service';
import type { ActivityService } from '../domain/chat/activity.service';
import type { SkillService } from '../domain/skills/skill.service';
import type { WebhookCaptureService } from '../domain/webhooks/webhook-capture.service';
import type { EngineStreamsLookup } from '../engine/engine-streams';
import type { ChannelKindDef, Publish, SourceHandle, Stop } from './channel-hub';
import { buildOutputSource } from './sources/build-output.source';
import { activitySource, sessionSource } from './sources/chat.sources';
import { containerLogsSource } from './sources/container-logs.source';
import { containerStatsSource } from './sources/container-stats.source';
import { engineEventsSource } from './sources/engine-events.source';
import { skillRunSource } from './sources/skill-run.source';
import { webhookCaptureSource } from './sources/webhook-capture.source';

type Sources = {
  [K in ChannelKind]: (
    params: ChannelParams<K>,
    publish: Publish,
    options: JoinOptions
  ) => Stop | SourceHandle;
};

export interface ChannelDeps {
  bus: DomainBus;
  /** The raw streams of an engine by name (null: no such engine). */
  engines: EngineStreamsLookup;
  builds: BuildService;
  skills: SkillService;
  activity: ActivityService;
  captures: WebhookCaptureService;
}

/**
 * The source behind each channel kind of the contract; the type makes a kind without a source
 * a compile error. Bus channels listen only while someone watches; engine channels open one
 * engine stream per channel instance, on demand, and close it when the last member leaves.
 */
export function consoleChannels({
  bus,
  engines,
  builds,
  skills,
  activity,
  captures
}: ChannelDeps): Record<string, ChannelKindDef<unknown>> {
  const sources: Sources = {
    audit: (_, publish) => bus.on('audit.appended', (entry) => publish('audit.appended', entry)),
    users: (_, publish) => bus.on('user.changed', (user) => publish('user.changed', user)),
    agents: (_, publish) => bus.on('agent.changed', (change) => publish('agent.changed', change)),
    'container.logs': containerLogsSource(engines),
    'container.stats': containerStatsSource(engines),
    'engine.events': engineEventsSource(engines),
    'build.output': buildOutputSource(builds),
    'skill.run': skillRunSource(skills),
    session: sessionSource(bus),
    activity: activitySource(bus, activity),
    'webhook.capture': webhookCaptureSource(captures)
  };
  // Only the capture's opener follows it; an id alone (it is in the URL given to the sender)
  // is not enough.
  const admits: Partial<Record<ChannelKind, ChannelKindDef<unknown>['admits']>> = {
    'webhook.capture': (id, userId) => !!userId && captures.ownerOf(id as string) === userId
  };
  return Object.fromEntries(
    Object.entries(CHANNELS).map(([kind, spec]) => [
      kind,
      { ...spec, start: sources[kind as ChannelKind], admits: admits[kind as ChannelKind] }
    ])
  );
}
