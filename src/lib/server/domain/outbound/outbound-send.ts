/** One signed POST, as the outbox's sender makes it (src/lib/server/outbound/http-sender.ts). */
export interface OutboundRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Loopback, private and link-local addresses are refused unless set. */
  allowPrivate: boolean;
  timeoutMs: number;
}

/** The answer's status; anything that kept it from coming is thrown as an Error in words. */
export type OutboundSend = (request: OutboundRequest) => Promise<{ status: number }>;
