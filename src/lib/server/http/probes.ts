import type { Readiness } from '$lib/contracts/health';
import { sendJson, type FastRoute } from './fast-router';
import { endSoon } from './flush';
import { API_HEADERS } from './security-headers';

export interface ProbeDeps {
  readiness(): Promise<Readiness>;
  metricsText(): Promise<string>;
  metricsContentType: string;
}

const HEALTHY = JSON.stringify({ status: 'ok' });
const HEALTHY_HEADERS = Object.freeze({
  ...API_HEADERS,
  'Content-Type': 'application/json; charset=utf-8',
  'Content-Length': String(HEALTHY.length),
  'Cache-Control': 'no-store'
});

/** /healthz (the process answers), /readyz (database and engine, each reported), /metrics. */
export function probeRoutes(deps: ProbeDeps): FastRoute[] {
  return [
    {
      method: 'GET',
      path: '/healthz',
      interface: 'probe',
      handle: (_req, res) => {
        res.writeHead(200, HEALTHY_HEADERS);
        endSoon(res, HEALTHY);
      }
    },
    {
      method: 'GET',
      path: '/readyz',
      interface: 'probe',
      handle: async (_req, res) => {
        const readiness = await deps.readiness();
        sendJson(res, readiness.status === 'unavailable' ? 503 : 200, readiness);
      }
    },
    {
      method: 'GET',
      path: '/metrics',
      interface: 'probe',
      handle: async (_req, res) => {
        const text = await deps.metricsText();
        res.writeHead(200, {
          ...API_HEADERS,
          'Content-Type': deps.metricsContentType,
          'Cache-Control': 'no-store'
        });
        endSoon(res, text);
      }
    }
  ];
}
