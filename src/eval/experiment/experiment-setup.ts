import { type CacheStore, cachedModel, memoryCacheStore } from '../../cache/index.js';
import type { Model } from '../../llm/index.js';
import type { ExperimentStore } from './experiment-types.js';
import { memoryExperimentStore } from './memory-experiment-store.js';
import { PostgresExperimentStore } from './postgres-experiment-store.js';
import type { AgentLike, Task } from './run-trial.js';
import { SqliteExperimentStore } from './sqlite-experiment-store.js';

/**
 * The experiment store an option names: a store as it is, a `postgres://` URL (PostgreSQL), another
 * string (a SQLite file), or nothing (in memory). `owned` says the experiment opened it, and closes it.
 */
export function experimentStoreOf(store: ExperimentStore | string | undefined): {
  store: ExperimentStore;
  owned: boolean;
} {
  if (store === undefined) return { store: memoryExperimentStore(), owned: false };
  if (typeof store !== 'string') return { store, owned: false };
  if (/^postgres(ql)?:\/\//.test(store)) {
    return { store: new PostgresExperimentStore({ connectionString: store }), owned: true };
  }
  return { store: new SqliteExperimentStore({ file: store }), owned: true };
}

/** The reply cache an option names: `true` is one in memory for this experiment, a store is used as it is. */
export function cacheOf(cache: boolean | CacheStore | undefined): CacheStore | undefined {
  if (cache === true) return memoryCacheStore();
  return cache || undefined;
}

/** An `Agent`, seen structurally (eval/ sits below agent/): its options hold its model, its constructor takes them. */
interface AgentWithOptions extends AgentLike {
  readonly options: { model: Model };
}

export function isAgent(task: Task): task is AgentWithOptions {
  const options = (task as Partial<AgentWithOptions>).options;
  return typeof task === 'object' && typeof options?.model?.generate === 'function';
}

/**
 * The task with its model answering repeated requests from `cache`: an `Agent` is built again from its
 * options with the model wrapped (tools registered on it after construction are not carried over); a
 * function task gets the store in `ctx.cache` to wrap its own model with `cachedModel`.
 */
export function cachedTask(task: Task, cache: CacheStore | undefined): Task {
  if (!cache || !isAgent(task)) return task;
  const Rebuild = task.constructor as new (options: { model: Model }) => AgentLike;
  return new Rebuild({ ...task.options, model: cachedModel(task.options.model, { store: cache }) });
}
