import { z } from 'zod';
import { agentNameSchema } from './fields';

export const OUTBOUND_EVENTS = ['turn.completed', 'turn.failed'] as const;
export type OutboundEvent = (typeof OUTBOUND_EVENTS)[number];

/** An outbound webhook as the console lists it: never its secret. */
export interface OutboundWebhookView {
  id: string;
  agentName: string;
  url: string;
  events: OutboundEvent[];
  allowPrivate: boolean;
  source: 'config' | 'console';
  createdAt: number | null;
}

export interface OutboundDeliveryView {
  deliveryId: string;
  agentName: string;
  endpointId: string;
  url: string;
  event: string;
  turnId: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAt: number | null;
  lastError: string | null;
  createdAt: number;
  deliveredAt: number | null;
}

export interface OutboundAttemptView {
  at: number;
  status: number | null;
  error: string | null;
  durationMs: number;
  trigger: 'auto' | 'resend';
}

export const outboundAgentInput = z.object({ agent: agentNameSchema });

export const addOutboundInput = z.object({
  agent: agentNameSchema,
  url: z.url({ protocol: /^https?$/, error: 'Enter an http:// or https:// URL' }).max(2000),
  events: z
    .array(z.enum(OUTBOUND_EVENTS))
    .min(1, 'Choose at least one event')
    .default([...OUTBOUND_EVENTS]),
  allowPrivate: z.boolean().default(false)
});
export type AddOutboundInput = z.input<typeof addOutboundInput>;

export const outboundIdInput = z.object({ id: z.string().min(1).max(200) });

export const outboundDeliveriesInput = z.object({
  agent: agentNameSchema.optional(),
  turnId: z.string().min(1).max(200).optional(),
  limit: z.number().int().min(1).max(100).default(25),
  cursor: z.string().max(500).optional()
});
