import type { Context } from 'hono';
import { maybeNodeBuiltin } from '../../core/index.js';

/**
 * Who calls the API. `principal` names them: runs and sessions they start are theirs, and they see only
 * their own unless `admin`. An open server (no auth configured) has one anonymous admin caller.
 */
export interface Caller {
  /** Undefined only on an open server. */
  principal?: string;
  admin: boolean;
}

/** What the run service knows of the HTTP request it serves: who calls, and the request itself. */
export interface RequestScope {
  caller: Caller;
  context: Context;
  /** Runs this request started (or attached to with an Idempotency-Key): its failures are then not retryable. */
  started?: string[];
  /** The header holding the request's idempotency key, when a route names another than `Idempotency-Key`. */
  idempotencyHeader?: string;
}

/**
 * The scope of the request being handled. It is held in async context rather than passed by each route:
 * every route that reads or starts runs goes through the run service, and the service reads the caller
 * here, so a route added later cannot forget the owner, the filtering or the idempotency key.
 */
const storage: ScopeStorage = asyncStorage() ?? oneAtATime();

/** The part of `AsyncLocalStorage` the scope needs. */
interface ScopeStorage {
  run<T>(scope: RequestScope, next: () => Promise<T>): Promise<T>;
  getStore(): RequestScope | undefined;
}

/** `AsyncLocalStorage` where the runtime has it: Node, Bun, Deno, and Workers with `nodejs_compat` or `nodejs_als`. */
function asyncStorage(): ScopeStorage | undefined {
  type Als = new () => ScopeStorage;
  const Ctor =
    (maybeNodeBuiltin('node:async_hooks')?.AsyncLocalStorage as Als | undefined) ??
    (globalThis as { AsyncLocalStorage?: Als }).AsyncLocalStorage;
  return Ctor && new Ctor();
}

/**
 * Where no runtime can carry context across awaits (a browser, a Worker without the compat flags),
 * requests run one at a time, each until its response body ended (a streamed answer reads runs after
 * its handler returned), so the one scope in force is always the request's own: never another caller's.
 */
function oneAtATime(): ScopeStorage {
  let current: RequestScope | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  return {
    run(scope, next) {
      let release!: () => void;
      const done = new Promise<void>((resolve) => {
        release = resolve;
      });
      const turn = queue.then(async () => {
        current = scope;
        try {
          const result = await next();
          holdUntilBodyEnds(scope.context, release);
          return result;
        } catch (error) {
          release();
          throw error;
        }
      });
      queue = done.then(() => {
        current = undefined;
      });
      return turn;
    },
    getStore: () => current,
  };
}

/** Calls `release` once the response's body was read to its end or cancelled (at once when it has none). */
function holdUntilBodyEnds(context: Context, release: () => void): void {
  const response = context.res;
  if (!response?.body) {
    release();
    return;
  }
  const body = response.body.pipeThrough(
    new TransformStream({
      flush: () => release(),
    }),
  );
  const reader = body.getReader();
  const held = new ReadableStream({
    pull: async (controller) => {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: async (reason) => {
      release();
      await reader.cancel(reason);
    },
  });
  context.res = new Response(held, response);
}

/** Runs `next` (the rest of the request) inside `scope`. */
export function runInScope<T>(scope: RequestScope, next: () => Promise<T>): Promise<T> {
  return storage.run(scope, next);
}

/** The scope of the request in progress, if any. */
export function currentScope(): RequestScope | undefined {
  return storage.getStore();
}
