/** The engine a page shows: `?engine=` when it names one, else the local engine. */
export function engineOf(url: URL): string {
  const name = url.searchParams.get('engine');
  return name && /^[a-z0-9][a-z0-9_-]{0,62}$/.test(name) ? name : 'local';
}
