import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'hono';

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
const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `next` (the rest of the request) inside `scope`. */
export function runInScope<T>(scope: RequestScope, next: () => Promise<T>): Promise<T> {
  return storage.run(scope, next);
}

/** The scope of the request in progress, if any. */
export function currentScope(): RequestScope | undefined {
  return storage.getStore();
}
