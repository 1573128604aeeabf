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

export function applyBaseHeaders(res: ServerResponse, https: boolean): void {
  for (const [name, value] of Object.entries(BASE_HEADERS)) res.setHeader(name, value);
  if (https) res.setHeader('Strict-Transport-Security', 'max-age=31536000');
}
