export type CheckStatus = 'ok' | 'unavailable' | 'error';

export interface Check {
  status: CheckStatus;
  detail?: string;
  latencyMs?: number;
}

export interface Readiness {
  status: 'ok' | 'degraded' | 'unavailable';
  checks: { database: Check; engine: Check & { apiVersion?: string } };
}
