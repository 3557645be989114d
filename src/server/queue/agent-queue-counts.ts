import { type QueueLocation, queueSettings, redisClient } from './queue-names.js';

// Checks and adds in one step, so API servers starting runs at once cannot overshoot the limit.
const ADD_IF_ROOM = `
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1`;

/**
 * Which runs of each agent wait in the queue for a worker, as one Redis sorted set per agent (scored by
 * when the run was counted): API servers add a run before storing it, and the worker that takes its job
 * (or a cancel) removes it. BullMQ only counts a whole queue, and the queue limit is per agent. The sets
 * are only a count: the reconciler rebuilds them from PostgreSQL (`reconcile`), so an id left behind
 * (a crash, a Redis command lost in an outage) does not count against `maxQueuedRuns` forever.
 */
export interface AgentQueueCounts {
  /** Counts the run as waiting unless `max` runs of its agent already are; false when full. */
  add(agent: string, runId: string, max: number): Promise<boolean>;
  remove(agent: string, runId: string): Promise<void>;
  /** How many runs of the agent wait. */
  count(agent: string): Promise<number>;
  /**
   * Makes the agent's set hold the runs PostgreSQL says are queued: ids counted before `before` (a
   * millisecond time) that are not among `queued` go, and missing queued ones are added (after a
   * Redis flush). Ids counted since `before` stay: their rows may not be committed yet.
   */
  reconcile(agent: string, queued: readonly { id: string; createdAt: number }[], before: number): Promise<void>;
  /** Resolves when Redis answers. */
  ping(): Promise<unknown>;
  /** Called each time the connection is (re)established. */
  onReady(listener: () => void): void;
  close(): Promise<void>;
}

export function agentQueueCounts(location: QueueLocation, onError?: (error: unknown) => void): AgentQueueCounts {
  const { name, options } = queueSettings(location);
  // Adds and removes made in one tick (many runs start and end at once) go out in one write.
  const redis = redisClient(location, { onError, pipeline: true });
  // A Lua script run as one command (ioredis sends it by its SHA after the first call).
  redis.defineCommand('addIfRoom', { numberOfKeys: 1, lua: ADD_IF_ROOM });
  const addIfRoom = (
    redis as unknown as { addIfRoom(key: string, runId: string, max: number, now: number): Promise<number> }
  ).addIfRoom;
  const key = (agent: string) => `${options.prefix}:${name}:queued-runs:${agent}`;
  return {
    async add(agent, runId, max) {
      return (await addIfRoom.call(redis, key(agent), runId, max, Date.now())) === 1;
    },
    async remove(agent, runId) {
      await redis.zrem(key(agent), runId);
    },
    count: (agent) => redis.zcard(key(agent)),
    async reconcile(agent, queued, before) {
      const k = key(agent);
      const keep = new Set(queued.map((run) => run.id));
      const old = await redis.zrangebyscore(k, '-inf', `(${before}`);
      const gone = old.filter((id) => !keep.has(id));
      const multi = redis.multi();
      if (gone.length > 0) multi.zrem(k, ...gone);
      // NX: a run counted already keeps its score.
      for (const run of queued) multi.zadd(k, 'NX', run.createdAt, run.id);
      await multi.exec();
    },
    ping: () => redis.ping(),
    onReady(listener) {
      redis.on('ready', listener);
    },
    async close() {
      if (redis.status !== 'end') await redis.quit().catch(() => redis.disconnect());
    },
  };
}
