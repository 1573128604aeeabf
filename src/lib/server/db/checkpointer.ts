import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the checkpointer copies what the write-ahead log holds into the database file. */
export const CHECKPOINT_EVERY_MS = 100;
/**
 * The server's own connection checkpoints only past this many WAL pages (SQLite's default is
 * 1,000): the checkpointer keeps the log far below it, so this happens only if it stalls.
 */
export const FALLBACK_AUTOCHECKPOINT = 10_000;

/** The worker: its own connection, a passive checkpoint every `everyMs`, stopped by a message. */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
let failed = null;
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    if (failed) parentPort.postMessage({ recovered: true });
    failed = null;
  } catch (err) {
    const code = String(err.code ?? err.message);
    if (code !== failed) parentPort.postMessage({ failed: code });
    failed = code;
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** What the worker reports: its checkpoints failed (SQLite's code), or work again. */
export type CheckpointTrouble = { failed: string } | { recovered: true };

export interface Checkpointer {
  /** Stops the worker: it closes its connection and ends. */
  stop(): void;
}

/**
 * Checkpoints on a worker thread. A checkpoint copies the WAL's pages into the database file
 * and syncs it to disk; SQLite runs it in the committing connection, so the server's event
 * loop stood still for each one (about 2.7 ms of fsync on this machine's disk, 10 times a
 * second under a wake flood, besides the copying). A passive checkpoint takes no lock that
 * writers wait on. `onTrouble` hears when the worker's checkpoints fail and recover.
 */
export function startCheckpointer(
  file: string,
  onTrouble: (problem: CheckpointTrouble) => void = () => {}
): Checkpointer {
  const worker = new Worker(SOURCE, {
    eval: true,
    workerData: {
      file,
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      everyMs: CHECKPOINT_EVERY_MS
    }
  });
  worker.unref();
  worker.on('message', onTrouble);
  worker.on('error', (err: Error) => onTrouble({ failed: err.message }));
  return { stop: () => worker.postMessage('stop') };
}
