/** A registry's credentials as the engine reads X-Registry-Auth: URL-safe base64 JSON. */
export interface RegistryCredential {
  server: string;
  username: string;
  password: string;
}

/** The registry an image name points at: its first segment when it looks like a host. */
export function registryOf(image: string): string {
  const first = image.split('/')[0] ?? '';
  return image.includes('/') && /[.:]|^localhost$/.test(first) ? first : 'docker.io';
}

/** The X-Registry-Auth value for `image`, or undefined when no credential is kept for it. */
export function registryAuthFor(
  image: string,
  credentials: readonly RegistryCredential[]
): string | undefined {
  const server = registryOf(image);
  const found = credentials.find((c) => c.server === server);
  if (!found) return undefined;
  const json = JSON.stringify({
    username: found.username,
    password: found.password,
    serveraddress: found.server
  });
  // URL-safe alphabet but padded: the engine decodes with Go's base64.URLEncoding, which
  // wants the padding that Node's 'base64url' leaves out.
  return Buffer.from(json).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}
