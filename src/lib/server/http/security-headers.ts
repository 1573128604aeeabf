import type { ServerResponse } from 'node:http';

/**
 * Headers every response carries. Pages get their own CSP (with nonces) from SvelteKit, which
 * replaces the strict default set here; everything else (JSON, probes, assets) keeps it.
 */
export const BASE_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"
};

/**
 * Headers of the JSON and event-stream answers written ahead of SvelteKit (gateway, probes):
 * the set OWASP's REST Security Cheat Sheet asks of an API, with Cache-Control added by each
 * writer. The page-only headers (Referrer-Policy, COOP, CORP, Permissions-Policy) do nothing
 * for a JSON answer, and each header costs Node about half a microsecond to validate and write
 * on the gateway's hottest paths.
 */
export const API_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': BASE_HEADERS['Content-Security-Policy']!
};

export function applyBaseHeaders(res: ServerResponse, https: boolean): void {
  for (const [name, value] of Object.entries(BASE_HEADERS)) res.setHeader(name, value);
  if (https) res.setHeader('Strict-Transport-Security', 'max-age=31536000');
}
