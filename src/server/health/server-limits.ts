/** Limits that keep a server healthy under load. */
export interface ServerLimits {
  /** Largest request body in bytes (413 above it). Default 1 MiB. */
  maxBodyBytes?: number;
  /** Milliseconds a client has to send a whole request, headers and body (408 after it). Default 60000. */
  requestTimeoutMs?: number;
  /** Runs of one agent executing at once. Default 16. */
  maxConcurrentRuns?: number;
  /** Runs of one agent waiting for a slot; beyond it, 429 with Retry-After. Default 1000. */
  maxQueuedRuns?: number;
  /** Seconds a client is told to wait when the queue is full. Default 1. */
  retryAfterSeconds?: number;
  /** Hours an Idempotency-Key keeps answering with the run it started. Default 24. */
  idempotencyKeyHours?: number;
  /** Per-agent overrides. */
  agents?: Record<string, { maxConcurrentRuns?: number; maxQueuedRuns?: number }>;
}

export const DEFAULT_LIMITS = {
  maxBodyBytes: 1024 * 1024,
  requestTimeoutMs: 60_000,
  maxConcurrentRuns: 16,
  maxQueuedRuns: 1000,
  retryAfterSeconds: 1,
} as const;

/** The concurrency and queue limits for one agent. */
export function agentLimits(limits: ServerLimits | undefined, agent: string): { concurrent: number; queued: number } {
  const own = limits?.agents?.[agent];
  return {
    concurrent: own?.maxConcurrentRuns ?? limits?.maxConcurrentRuns ?? DEFAULT_LIMITS.maxConcurrentRuns,
    queued: own?.maxQueuedRuns ?? limits?.maxQueuedRuns ?? DEFAULT_LIMITS.maxQueuedRuns,
  };
}
