import { z } from 'zod';

const Limits = z
  .object({
    timeoutMs: z.number().int().positive(),
    outputBytes: z.number().int().positive(),
    diskBytes: z.number().int().positive(),
    memoryBytes: z.number().int().positive(),
    processes: z.number().int().positive(),
  })
  .partial()
  .strict();

const Env = z.record(z.string(), z.string());

/**
 * Whose workspace it is: `run` (the default) gives every run its own; `thread` gives the runs of one
 * conversation thread (a chat id, an AG-UI thread, an A2A context, a session, a native run's
 * `threadId`) one workspace, so each turn finds the files the turn before it left. A run on no thread
 * gets its own. One run at a time answers a thread: a second start while one is unfinished is refused (409).
 */
const Scope = z.enum(['run', 'thread'], {
  error: () => 'scope must be "run" (a workspace per run) or "thread" (one per conversation thread)',
});

/**
 * The workspace each run (or each conversation thread, with `scope: thread`) of an agent gets, in a
 * config (`workspace:` of an agent in `thinkflow.config.yaml`, or `withRunWorkspace`): in memory (every
 * runtime; rebuilt from the runs' logs after a restart), or a folder under the Linux sandbox (`dir`
 * holds one folder per run or thread).
 */
export const WorkspaceSpec = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('memory'),
        scope: Scope.optional(),
        /** Files each run starts with: relative path → text. */
        files: z.record(z.string(), z.string()).optional(),
        env: Env.optional(),
        limits: Limits.optional(),
      })
      .strict(),
    z
      .object({
        kind: z.literal('sandbox'),
        scope: Scope.optional(),
        /** The folder that holds each run's (or thread's) folder and snapshots (relative to the config file). Default `workspaces/<agent>`. */
        dir: z.string().min(1).optional(),
        /** Hosts commands may reach; none by default. */
        network: z
          .object({ allow: z.array(z.string().min(1)) })
          .strict()
          .optional(),
        env: Env.optional(),
        limits: Limits.optional(),
      })
      .strict(),
  ],
  { error: () => 'kind must be "memory" (in memory, every runtime) or "sandbox" (bubblewrap, Linux)' },
);
export type WorkspaceSpec = z.infer<typeof WorkspaceSpec>;
