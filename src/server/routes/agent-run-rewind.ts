import type { Context } from 'hono';
import { z } from 'zod';
import { apiError, NO_RETRY, readBody } from '../http/index.js';
import type { RunService } from '../records/index.js';

/** Body of POST /v1/runs/:id/rewind. */
export const RewindRunBody = z.object({
  /** The step whose starting files the workspace goes back to (0: before the first call). */
  step: z.number({ error: 'step must be a step number (0 for the first)' }).int().min(0),
});
export type RewindRunBody = z.infer<typeof RewindRunBody>;

/**
 * POST /v1/runs/:id/rewind for an agent run with a workspace: puts the files back as they were when
 * step `step` began; answers `{ run, snapshot }`. 409 while the run is still going, 400 for a step it does
 * not have or a run without a workspace.
 */
export async function agentRunRewind(c: Context, runs: RunService, id: string): Promise<Response> {
  const body = await readBody(c, RewindRunBody);
  if (!body.ok) return body.response;
  if (!runs.rewind) {
    return apiError(c, 'not_implemented', 'This server does not rewind workspaces: its run service has no rewind.');
  }
  const rewound = await runs.rewind(id, body.value.step);
  if (rewound.ok) return c.json({ run: { ...rewound.run, kind: 'agent' }, snapshot: rewound.snapshot ?? null });
  switch (rewound.reason) {
    case 'unknown_run':
    case 'unknown_agent':
      return apiError(c, 'not_found', rewound.message);
    case 'active':
      return apiError(c, 'conflict', rewound.message);
    default:
      return apiError(c, 'invalid_request', rewound.message, NO_RETRY);
  }
}
