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
 * The workspace each run of an agent gets, in a config (`workspace:` of an agent in
 * `thinkflow.config.yaml`, or `withRunWorkspace`): in memory (every runtime; rebuilt from the run's log
 * after a restart), or a folder under the Linux sandbox (`dir` holds one folder per run).
 */
export const WorkspaceSpec = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('memory'),
        /** Files each run starts with: relative path → text. */
        files: z.record(z.string(), z.string()).optional(),
        env: Env.optional(),
        limits: Limits.optional(),
      })
      .strict(),
    z
      .object({
        kind: z.literal('sandbox'),
        /** The folder that holds each run's folder and snapshots (relative to the config file). Default `workspaces/<agent>`. */
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
