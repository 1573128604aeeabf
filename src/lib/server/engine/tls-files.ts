import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type TlsPart = 'ca' | 'cert' | 'key';

/**
 * Uploaded TLS material for console-added engines, as files under `<dir>/<engine>/`: the
 * folder 0700, each file 0600, so only the server's user reads them. The engine name is
 * already checked (`[a-z0-9][a-z0-9_-]*`), so it cannot step out of `dir`.
 */
export class TlsFiles {
  constructor(private readonly dir: string) {}

  write(engine: string, part: TlsPart, pem: string): string {
    const folder = join(this.dir, engine);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    chmodSync(folder, 0o700);
    const file = join(folder, `${part}.pem`);
    writeFileSync(file, pem, { mode: 0o600 });
    chmodSync(file, 0o600); // the mode above applies only when the file is new
    return file;
  }

  remove(engine: string): void {
    rmSync(join(this.dir, engine), { recursive: true, force: true });
  }
}
