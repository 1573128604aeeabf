import { z } from 'zod';
import {
  containerIdSchema,
  engineNameSchema,
  execIdSchema,
  imagePullSchema,
  imageRefSchema
} from './engine';

/**
 * Interactive exec and image pull progress over socket.io. An exec session belongs to the socket
 * that started it (no room): it ends when that socket closes. Both are operator writes.
 */

const size = { cols: z.number().int().min(1).max(1000), rows: z.number().int().min(1).max(1000) };

export const ExecStart = z.strictObject({
  engine: engineNameSchema,
  container: containerIdSchema,
  cmd: z.array(z.string().min(1).max(4096)).min(1).max(64).default(['sh']),
  /** Only TTY sessions: the output is the terminal's raw bytes, no stream frames. */
  tty: z.literal(true).default(true),
  ...size
});
export type ExecStart = z.input<typeof ExecStart>;

export const ExecInput = z.strictObject({
  execId: execIdSchema,
  data: z.string().max(16 * 1024)
});
export const ExecResize = z.strictObject({ execId: execIdSchema, ...size });
export const ExecClose = z.strictObject({ execId: execIdSchema });

export const ImagePull = z.strictObject({
  engine: engineNameSchema,
  ref: imageRefSchema,
  tag: imagePullSchema.shape.tag
});
export type ImagePull = z.input<typeof ImagePull>;

/** One layer of a pull as the engine last reported it (`current`/`total` in bytes, when known). */
export interface PullLayer {
  id: string;
  status: string;
  current?: number;
  total?: number;
}

export type ExecStartAck = (
  result: { ok: true; execId: string } | { ok: false; error: string }
) => void;
export type ExecAck = (result: { ok: true } | { ok: false; error: string }) => void;

export interface ExecServerEvents {
  /** Terminal output of a session, UTF-8 text as the terminal wrote it. */
  'exec.output': (payload: { execId: string; data: string }) => void;
  /**
   * A session ended: the command exited (`exitCode` when the engine reports it), the socket
   * closed it, the engine dropped it, or the user lost the operator role.
   */
  'exec.ended': (payload: { execId: string; exitCode?: number; reason: string }) => void;
  /** Every layer seen so far, with its last status; sent at most about ten times a second. */
  'image.pull.progress': (payload: { ref: string; layers: PullLayer[] }) => void;
  /** The pull finished (`ok`) or failed, `error` in words. */
  'image.pull.done': (payload: { ref: string; ok: boolean; error?: string }) => void;
}

export interface ExecClientEvents {
  'exec.start': (start: ExecStart, ack: ExecStartAck) => void;
  'exec.input': (input: { execId: string; data: string }) => void;
  'exec.resize': (resize: { execId: string; cols: number; rows: number }, ack?: ExecAck) => void;
  'exec.close': (close: { execId: string }, ack?: ExecAck) => void;
  /** Starts a pull; the ack says it started, then progress and done events follow. */
  'image.pull': (pull: ImagePull, ack: ExecAck) => void;
}
