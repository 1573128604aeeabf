/**
 * Loopback names and addresses: what the Host guard, the bind-safety check and the first-admin
 * setup treat as "this machine only". Kept below http/ and config/ so both may use it.
 */
const LOOPBACK_NAMES = new Set(['localhost', '::1', '[::1]']);

export function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return (
    LOOPBACK_NAMES.has(name) || name.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(name)
  );
}

export function isLoopbackAddress(address: string | undefined | null): boolean {
  if (!address) return false;
  return (
    address === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(address) ||
    /^::ffff:127(\.\d{1,3}){3}$/.test(address)
  );
}
