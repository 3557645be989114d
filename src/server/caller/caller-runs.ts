import { sha256Hex } from '../../core/index.js';
import { type Caller, currentScope, type RequestScope } from '../http/index.js';
import type { ForkResult, IdempotencyRequest, RunRecord, RunService } from '../records/index.js';

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

/** The owners of the runs the view has read (an owner never changes), and whether the caller may see one. */
function ownerBook(inner: RunService) {
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
  return { remember, visible };
}

/**
 * Starts a run (or a fork) as the caller: owned by their principal, with their Idempotency-Key, and kept
 * as the request's run (a retry's replay is marked `Idempotent-Replayed`).
 */
async function startAsCaller<R extends ForkResult>(
  remember: (run: RunRecord) => void,
  go: (as: { owner?: string; idempotency?: IdempotencyRequest }) => Promise<R>,
): Promise<R | { ok: false; reason: 'invalid_idempotency_key' }> {
  const found = scope();
  const idempotency = await idempotencyOf(found);
  if (idempotency === null) return { ok: false, reason: 'invalid_idempotency_key' };
  const result = await go({ owner: found.caller.principal, idempotency });
  if (result.ok) {
    remember(result.run);
    found.started = [...(found.started ?? []), result.run.id];
    if (result.replayed) found.context.header('Idempotent-Replayed', 'true');
  }
  return result;
}

/**
 * The run service as one caller of the HTTP API sees it. Runs they start carry their principal as
 * owner, and their Idempotency-Key (`start` returns the first run for a retry); any run not theirs is
 * not found (an admin sees all). Every route gets this view, so a route cannot start a run without an
 * owner or show another caller's run: the caller is read from the request scope `resolveCaller` opened.
 */
export function callerRuns(inner: RunService): RunService {
  const { remember, visible } = ownerBook(inner);
  const innerFork = inner.fork?.bind(inner);
  /** A fork is started as a start is: by this caller, with their key, of a run they may see. */
  const fork: RunService['fork'] = innerFork
    ? async (id, request) => {
        if (!(await visible(id))) return { ok: false, reason: 'unknown_run' };
        return startAsCaller(remember, (as) => innerFork(id, { ...request, ...as }));
      }
    : undefined;
  const innerRewind = inner.rewind?.bind(inner);
  const rewind: RunService['rewind'] = innerRewind
    ? async (id, step) =>
        (await visible(id))
          ? innerRewind(id, step)
          : { ok: false, reason: 'unknown_run', message: `No run with id "${id}".` }
    : undefined;

  return {
    agentNames: () => inner.agentNames(),
    ...(fork && { fork }),
    ...(rewind && { rewind }),
    start: (request) => startAsCaller(remember, (as) => inner.start({ ...request, ...as })),
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
    events: async (id, afterSeq) => ((await visible(id)) ? inner.events(id, afterSeq) : []),
    changed: (id, timeoutMs) => inner.changed(id, timeoutMs),
    status: async (id) => ((await visible(id)) ? inner.status(id) : undefined),
    wait: async (id, signal) => ((await visible(id)) ? inner.wait(id, signal) : undefined),
    cancel: async (id) => ((await visible(id)) ? inner.cancel(id) : undefined),
    answer: async (id, answer) => ((await visible(id)) ? inner.answer(id, answer) : 'not_found'),
    close: (options) => inner.close(options),
  };
}
