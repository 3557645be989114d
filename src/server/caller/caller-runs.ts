import { sha256Hex } from '../../core/index.js';
import { type Caller, currentScope, type RequestScope } from '../http/index.js';
import type { IdempotencyRequest, RunRecord, RunService, StartResult } from '../records/index.js';

/** The header that makes a run-starting request safe to retry. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** Keys a client may send: 1 to 255 visible ASCII characters (a UUID, a ULID, a hash). */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** Run ids whose owner is cached: an owner never changes, and the bound keeps memory flat. */
const OWNER_CACHE = 10_000;

function scope(): RequestScope {
  const found = currentScope();
  // Every route is behind `resolveCaller`; a call outside it is a route mounted in front of the middleware.
  if (!found) throw new Error('The run service was called outside a request: mount routes after resolveCaller().');
  return found;
}

/** True when the caller may see a run of `owner`: their own, or any for an admin. */
export function mayAccess(caller: Caller, owner: string | undefined): boolean {
  return caller.admin || (owner !== undefined && owner === caller.principal);
}

/** The request's Idempotency-Key (or the key header its route names) with a fingerprint of the request (method, path, query, body); null for a malformed key. */
export async function idempotencyOf(found: RequestScope): Promise<IdempotencyRequest | null | undefined> {
  const { req } = found.context;
  const named = found.idempotencyHeader ? req.header(found.idempotencyHeader) : undefined;
  const key = req.header(IDEMPOTENCY_HEADER) ?? named;
  if (key === undefined) return undefined;
  if (!KEY.test(key)) return null;
  const url = new URL(req.url);
  // The route has read the body already: hono hands back its cached text.
  const body = req.method === 'GET' || req.method === 'HEAD' ? '' : await req.text();
  const fingerprint = sha256Hex(`${req.method} ${url.pathname}${url.search}\n${body}`);
  return { key, fingerprint };
}

/**
 * The run service as one caller of the HTTP API sees it. Runs they start carry their principal as
 * owner, and their Idempotency-Key (`start` returns the first run for a retry); any run not theirs is
 * not found (an admin sees all). Every route gets this view, so a route cannot start a run without an
 * owner or show another caller's run: the caller is read from the request scope `resolveCaller` opened.
 */
export function callerRuns(inner: RunService): RunService {
  const owners = new Map<string, string | undefined>();
  const remember = (run: RunRecord) => {
    if (owners.size >= OWNER_CACHE) owners.clear();
    owners.set(run.id, run.owner);
  };
  /** True when the caller may see run `id` (false for an unknown one). */
  const visible = async (id: string): Promise<boolean> => {
    const { caller } = scope();
    if (caller.admin) return true;
    if (!owners.has(id)) {
      const run = await inner.get(id);
      if (!run) return false;
      remember(run);
    }
    return mayAccess(caller, owners.get(id));
  };

  /** A fork is started as a start is: by this caller, with their key, of a run they may see. */
  const fork: RunService['fork'] = inner.fork
    ? async (id, request) => {
        const found = scope();
        if (!(await visible(id))) return { ok: false, reason: 'unknown_run' };
        const idempotency = await idempotencyOf(found);
        if (idempotency === null) return { ok: false, reason: 'invalid_idempotency_key' };
        const result = await inner.fork!(id, { ...request, owner: found.caller.principal, idempotency });
        if (result.ok) {
          remember(result.run);
          found.started = [...(found.started ?? []), result.run.id];
          if (result.replayed) found.context.header('Idempotent-Replayed', 'true');
        }
        return result;
      }
    : undefined;

  return {
    agentNames: () => inner.agentNames(),
    ...(fork && { fork }),

    async start(request): Promise<StartResult> {
      const found = scope();
      const idempotency = await idempotencyOf(found);
      if (idempotency === null) return { ok: false, reason: 'invalid_idempotency_key' };
      const result = await inner.start({ ...request, owner: found.caller.principal, idempotency });
      if (result.ok) {
        remember(result.run);
        found.started = [...(found.started ?? []), result.run.id];
        if (result.replayed) found.context.header('Idempotent-Replayed', 'true');
      }
      return result;
    },

    async get(id) {
      const run = await inner.get(id);
      if (!run) return undefined;
      remember(run);
      return mayAccess(scope().caller, run.owner) ? run : undefined;
    },

    list(query) {
      const { caller } = scope();
      return inner.list(caller.admin ? query : { ...query, owner: caller.principal ?? '' });
    },

    async events(id, afterSeq) {
      return (await visible(id)) ? inner.events(id, afterSeq) : [];
    },

    changed: (id, timeoutMs) => inner.changed(id, timeoutMs),

    async status(id) {
      return (await visible(id)) ? inner.status(id) : undefined;
    },

    async wait(id, signal) {
      return (await visible(id)) ? inner.wait(id, signal) : undefined;
    },

    async cancel(id) {
      return (await visible(id)) ? inner.cancel(id) : undefined;
    },

    async answer(id, answer) {
      return (await visible(id)) ? inner.answer(id, answer) : 'not_found';
    },

    close: (options) => inner.close(options),
  };
}
