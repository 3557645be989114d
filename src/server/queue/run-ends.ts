import type { Redis } from 'ioredis';
import { type QueueLocation, queueSettings, redisClient } from './queue-names.js';

/**
 * Word from workers that a run's job stopped (the run ended, failed, or was handed back), so API
 * servers waiting on it read the store then instead of polling. One Redis pub/sub message per job,
 * pushed to every API server: BullMQ's QueueEvents would have each of them read every event of every
 * job (added, waiting, active, completed...), a round trip each. A message lost in a reconnect costs
 * a waiter one poll interval.
 */
export interface RunEnds {
  /** Called by workers once the job's writes are committed. */
  publish(runId: string): Promise<void>;
  close(): Promise<void>;
}

function channel(location: QueueLocation): string {
  const { name, options } = queueSettings(location);
  return `${options.prefix}:${name}:run-ends`;
}

export function runEndPublisher(location: QueueLocation, onError?: (error: unknown) => void): RunEnds {
  // Created on first use; jobs ending in one tick share one write.
  let redis: Redis | undefined;
  return {
    async publish(runId) {
      redis ??= redisClient(location, { onError, pipeline: true });
      await redis.publish(channel(location), runId);
    },
    async close() {
      if (redis && redis.status !== 'end') await redis.quit();
    },
  };
}

/** Calls `onEnd` with the run id of each job that stops on any worker; resolves once subscribed. */
export async function subscribeRunEnds(
  location: QueueLocation,
  onEnd: (runId: string) => void,
  onError?: (error: unknown) => void,
): Promise<{ close(): Promise<void> }> {
  // ioredis subscribes again by itself after a reconnect.
  const redis = redisClient(location, { onError });
  const name = channel(location);
  redis.on('message', (from: string, runId: string) => {
    if (from === name) onEnd(runId);
  });
  await redis.subscribe(name);
  return {
    async close() {
      if (redis.status !== 'end') await redis.quit();
    },
  };
}
