import { requireOptional } from '../../core/index.js';

/** Where runs wait in Redis: BullMQ queue name and key prefix, shared by API servers and workers. */
export interface QueueLocation {
  /** `redis://127.0.0.1:6379`. */
  redisUrl: string;
  /** Default `thinkflow-runs`. */
  queueName?: string;
  /** Redis key prefix. Default `thinkflow`. */
  prefix?: string;
}

/** What every worker takes besides where its queue is: how many jobs at once, its locks, where errors go. */
export interface WorkerOptions extends QueueLocation {
  /** Jobs run at once by this worker. Default 16. */
  concurrency?: number;
  /**
   * How long a job's lock lasts; the worker renews it every half of this while the job goes on. A worker
   * that dies (kill -9, a lost machine) holds its jobs this long before another takes them over.
   * Keep it well above the longest event-loop stall, or a busy worker loses its lock and the job is
   * taken over while it still runs. Default 30000 ms.
   */
  lockDurationMs?: number;
  /** How often this worker looks for jobs whose worker died (expired locks). Default half of `lockDurationMs`. */
  stalledIntervalMs?: number;
  /** Where errors of background work go. Default: stderr, each distinct message once per 10 s with a count. */
  onError?: (error: unknown) => void;
}

/** The job each run becomes: its id and agent; the run itself is in the store. */
export interface RunJob {
  runId: string;
  /** Absent in jobs queued by older versions. */
  agent?: string;
}

export function queueSettings(location: QueueLocation) {
  return {
    name: location.queueName ?? 'thinkflow-runs',
    options: {
      connection: { url: location.redisUrl, maxRetriesPerRequest: null },
      prefix: location.prefix ?? 'thinkflow',
    },
  };
}

/**
 * Where workflow step jobs wait: a queue beside the runs' (`<queueName>-steps`), so one `--queue-name`
 * keeps a deployment's runs and steps apart from another's.
 */
export function stepQueueSettings(location: QueueLocation): ReturnType<typeof queueSettings> {
  const settings = queueSettings(location);
  return { ...settings, name: `${settings.name}-steps` };
}

/**
 * How a worker holds its jobs: a lock renewed every half of `lockDurationMs` while the job runs; a
 * worker that dies holds its jobs that long, then the stalled check (every `stalledIntervalMs`) of any
 * live worker puts them back for another.
 */
export function lockOptions(options: Pick<WorkerOptions, 'lockDurationMs' | 'stalledIntervalMs'>) {
  const lockDuration = options.lockDurationMs ?? 30_000;
  return {
    lockDuration,
    stalledInterval: options.stalledIntervalMs ?? Math.max(500, Math.floor(lockDuration / 2)),
    maxStalledCount: 100,
  };
}

/** Puts a job back on its queue in `ms` without spending one of its attempts (those are for the work's own failures). */
export async function handBack(job: import('bullmq').Job, token: string | undefined, ms: number): Promise<never> {
  await job.moveToDelayed(Date.now() + ms, token);
  throw new (loadBullmq().DelayedError)();
}

// bullmq and ioredis load on first use, through these two: they are optional peers (queue mode only).

/**
 * An ioredis client that reconnects forever and reports its errors to `onError` (an ioredis client
 * with no `error` listener prints "Unhandled error event" on every failed reconnect). Commands wait
 * while it reconnects: callers that answer a person bound that wait (`boundedWait`).
 */
export function redisClient(
  location: QueueLocation,
  options: { onError?: (error: unknown) => void; pipeline?: boolean } = {},
): import('ioredis').Redis {
  const redis = new (loadRedis())(location.redisUrl, {
    maxRetriesPerRequest: null,
    enableAutoPipelining: options.pipeline ?? false,
    // Reconnects back off up to 2 s, with jitter, for as long as the outage lasts.
    retryStrategy: (times) => Math.min(2000, 50 * 2 ** Math.min(times, 6)) * (0.5 + Math.random() / 2),
  });
  redis.on('error', (error: unknown) => options.onError?.(error));
  return redis;
}

/** The ioredis client class. */
export function loadRedis(): typeof import('ioredis').Redis {
  return requireOptional<typeof import('ioredis')>('queue', 'ioredis').Redis;
}

/** The bullmq package. */
export function loadBullmq(): typeof import('bullmq') {
  return requireOptional<typeof import('bullmq')>('queue', 'bullmq');
}
