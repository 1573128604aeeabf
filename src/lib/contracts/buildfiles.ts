import { z } from 'zod';
import { engineNameSchema } from './engine';
import { isValidEngineId } from './engine-ids';

/**
 * Inputs of the build-file studio (workspaces, their files, builds), shared by tRPC, the domain
 * and the page. The server checks every path again against the workspace on disk.
 */

/** A text file in a workspace: at most this many bytes (UTF-8). */
export const FILE_MAX_BYTES = 1024 * 1024;
/** Everything in one workspace together. */
export const WORKSPACE_MAX_BYTES = 64 * 1024 * 1024;
/** Entries (files and folders) in one workspace. */
export const WORKSPACE_MAX_ENTRIES = 5000;
/** A build's log as kept in the history; the rest is cut and the log marked truncated. */
export const BUILD_LOG_MAX_BYTES = 1024 * 1024;
export const DEFAULT_BUILD_FILE = 'Dockerfile';
export const IGNORE_FILE = '.dockerignore';

export const workspaceIdSchema = z.string().regex(/^[0-9a-f-]{36}$/, 'not a workspace id');
export const workspaceNameSchema = z
  .string()
  .trim()
  .min(1, 'a name is needed')
  .max(64, 'at most 64 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]*$/, 'letters, digits, space, _, . and -');

/**
 * Why a workspace path is refused, or null. Relative, `/`-separated, no `.`/`..` segment, no
 * backslash, NUL or control character: the same check runs in the browser and on the server.
 */
export function workspacePathProblem(path: string): string | null {
  if (path.length === 0) return 'the path is empty';
  if (path.length > 1024) return 'the path is longer than 1024 characters';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'the path contains a control character';
  if (path.includes('\\')) return 'the path contains a backslash';
  if (path.startsWith('/')) return 'the path is absolute';
  const parts = path.split('/');
  if (parts.some((p) => p === '..')) return 'the path leaves the workspace (..)';
  if (parts.some((p) => p === '' || p === '.')) return 'the path has an empty or . segment';
  return null;
}

export const workspacePathSchema = z.string().superRefine((path, ctx) => {
  const problem = workspacePathProblem(path);
  if (problem) ctx.addIssue({ code: 'custom', message: `${path}: ${problem}` });
});
/** A folder, or '' for the workspace's root. */
const folderSchema = z.union([z.literal(''), workspacePathSchema]).default('');

/** `name:tag`, the tag required: what `docker build -t` takes (no digest). */
export const buildTagSchema = z
  .string()
  .trim()
  .max(255)
  .refine(
    (v) =>
      isValidEngineId('image', v) && !v.includes('@') && /:[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(v),
    'a tag is name:tag in lowercase, e.g. app:1.0'
  );

const ws = { workspace: workspaceIdSchema };

export const workspaceCreateSchema = z.strictObject({ name: workspaceNameSchema });
export const workspaceRenameSchema = z.strictObject({ ...ws, name: workspaceNameSchema });
export const workspaceRefSchema = z.strictObject(ws);
export const filePathSchema = z.strictObject({ ...ws, path: workspacePathSchema });
export const fileWriteSchema = z.strictObject({
  ...ws,
  path: workspacePathSchema,
  content: z.string().max(FILE_MAX_BYTES)
});
export const fileMoveSchema = z.strictObject({
  ...ws,
  from: workspacePathSchema,
  to: workspacePathSchema
});
/** Files as base64; the request as a whole is bounded by BODY_SIZE_LIMIT. */
export const fileUploadSchema = z.strictObject({
  ...ws,
  folder: folderSchema,
  files: z
    .array(
      z.strictObject({
        path: workspacePathSchema,
        base64: z.string().max(Math.ceil((FILE_MAX_BYTES * 4) / 3) + 4)
      })
    )
    .min(1)
    .max(200)
});
/** A tar (optionally gzipped) archive as base64, unpacked into `folder`. */
export const archiveUploadSchema = z.strictObject({
  ...ws,
  folder: folderSchema,
  base64: z.string().min(1)
});

export const contextPreviewSchema = z.strictObject({
  ...ws,
  buildFile: workspacePathSchema.default(DEFAULT_BUILD_FILE)
});

const buildArgName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'not an ARG name');
export const buildStartSchema = z.strictObject({
  ...ws,
  engine: engineNameSchema,
  buildFile: workspacePathSchema.default(DEFAULT_BUILD_FILE),
  tag: buildTagSchema,
  buildArgs: z.record(buildArgName, z.string().max(65_536)).default({}),
  target: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'not a stage name')
    .max(128)
    .optional(),
  noCache: z.boolean().default(false),
  pull: z.boolean().default(false)
});
export type BuildStart = z.output<typeof buildStartSchema>;

export const buildIdSchema = z.strictObject({ id: z.string().regex(/^[0-9a-f-]{36}$/) });
export const buildListSchema = z.strictObject({
  workspace: workspaceIdSchema.optional(),
  limit: z.number().int().min(1).max(200).default(50)
});

export interface WorkspaceInfo {
  id: string;
  name: string;
  createdBy: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface FileEntry {
  path: string;
  kind: 'file' | 'dir' | 'link';
  size: number;
}

export interface ContextEntry {
  path: string;
  size: number;
  /** Left out by the ignore file. */
  ignored: boolean;
}

export type BuildStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface BuildSummary {
  id: string;
  workspaceId: string;
  workspaceName: string;
  buildFile: string;
  tag: string;
  engine: string;
  target: string | null;
  userEmail: string | null;
  startedAt: number;
  endedAt: number | null;
  durationMs: number | null;
  status: BuildStatus;
  error: string | null;
  failedStep: number | null;
  failedLine: number | null;
  imageId: string | null;
  logTruncated: boolean;
}

export interface BuildDetail extends BuildSummary {
  log: string;
}

/** One printed line of a build: a step marker, the engine's output, or an error. */
export interface BuildLine {
  /** Position in the build's output, from 0: a late joiner skips what it holds. */
  seq: number;
  kind: 'step' | 'output' | 'status' | 'error';
  text: string;
  /** For a step: N of `Step N/M`, and the line of that instruction in the build file. */
  step?: number;
  line?: number;
}
