import { randomFillSync } from 'node:crypto';

// Random bytes are drawn 4 KiB at a time, as node:crypto's randomUUID does: a randomFillSync
// per id showed as 5% of a durable webhook wake. Ids are not secrets.
const pool = Buffer.alloc(4096);
let offset = pool.length;

/** The time and counter of the last id made: ids made in one millisecond count up from it. */
let lastMs = -1;
let counter = 0;
const COUNTER_MAX = 0xfff;

/**
 * UUID version 7 (RFC 9562): 48-bit milliseconds, a 12-bit counter, then random bits. Ids made in
 * time order land at the end of their primary-key index, so a burst of inserts touches a few
 * pages, not one random page each. Ids made in the same millisecond count up (RFC 9562's
 * "fixed bit-length dedicated counter", started at a random value below half), so lists ordered
 * by time and id keep the order things were made in; a counter that runs out, or a clock that
 * goes back, carries on from the last id's millisecond.
 */
export function uuidv7(now = Date.now()): string {
  if (offset + 10 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  if (now > lastMs) {
    lastMs = now;
    counter = pool.readUInt16BE(offset) & 0x7ff;
  } else if (++counter > COUNTER_MAX) {
    lastMs++;
    counter = pool.readUInt16BE(offset) & 0x7ff;
  }
  const bytes = Buffer.allocUnsafe(16);
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  pool.copy(bytes, 8, offset + 2, offset + 10);
  offset += 10;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The milliseconds in a UUID v7's first 48 bits (its time, as `uuidv7` wrote it). */
export function uuidv7Ms(id: string): number {
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}
