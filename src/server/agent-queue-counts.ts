import { loadRedis, type QueueLocation, queueSettings } from './queue-names.js';

// Checks and adds in one step, so API servers starting runs at once cannot overshoot the limit.
const ADD_IF_ROOM = `
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
return 1`;

/**
 * Which runs of each agent wait in the queue for a worker, as one Redis set per agent: API servers add
 * a run before queueing its job, and the worker that takes the job (or a cancel) removes it. BullMQ
 * only counts a whole queue, and the queue limit is per agent.
 */
export interface AgentQueueCounts {
  /** Counts the run as waiting unless `max` runs of its agent already are; false when full. */
  add(agent: string, runId: string, max: number): Promise<boolean>;
  remove(agent: string, runId: string): Promise<void>;
  /** How many runs of the agent wait. */
  count(agent: string): Promise<number>;
  close(): Promise<void>;
}

export function agentQueueCounts(location: QueueLocation): AgentQueueCounts {
  const { name, options } = queueSettings(location);
  // Adds and removes made in one tick (many runs start and end at once) go out in one write.
  const redis = new (loadRedis())(location.redisUrl, { maxRetriesPerRequest: null, enableAutoPipelining: true });
  // A Lua script run as one command (ioredis sends it by its SHA after the first call).
  redis.defineCommand('addIfRoom', { numberOfKeys: 1, lua: ADD_IF_ROOM });
  const addIfRoom = (redis as unknown as { addIfRoom(key: string, runId: string, max: number): Promise<number> })
    .addIfRoom;
  const key = (agent: string) => `${options.prefix}:${name}:queued:${agent}`;
  return {
    async add(agent, runId, max) {
      return (await addIfRoom.call(redis, key(agent), runId, max)) === 1;
    },
    async remove(agent, runId) {
      await redis.srem(key(agent), runId);
    },
    count: (agent) => redis.scard(key(agent)),
    async close() {
      if (redis.status !== 'end') await redis.quit();
    },
  };
}
