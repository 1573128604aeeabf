import { randomFillSync } from 'node:crypto';

// Random bytes are drawn 4 KiB at a time, as node:crypto's randomUUID does: a randomFillSync
// per id showed as 5% of a durable webhook wake. Ids are not secrets.
const pool = Buffer.alloc(4096);
let offset = pool.length;

/**
 * UUID version 7 (RFC 9562): 48-bit milliseconds, then random bits. Ids made in time order land
 * at the end of their primary-key index, so a burst of inserts touches a few pages, not one
 * random page each.
 */
export function uuidv7(now = Date.now()): string {
  if (offset + 10 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.allocUnsafe(16);
  bytes.writeUIntBE(now, 0, 6);
  pool.copy(bytes, 6, offset, offset + 10);
  offset += 10;
  bytes[6] = 0x70 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
