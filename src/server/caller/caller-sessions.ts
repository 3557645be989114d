import type { SessionStore } from '../../memory/index.js';
import { currentScope } from '../http/index.js';

/**
 * The key a caller's session `id` is stored under: `<principal>/<id>`, so each principal has sessions of
 * their own (session ids cannot hold "/", so two principals' keys never meet). An admin reaches another
 * principal's session with `?owner=<principal>`. On an open server (no principal) the id is the key.
 */
export function sessionKey(id: string): string {
  const scope = currentScope();
  const owner = scope?.caller.admin ? scope.context.req.query('owner') : undefined;
  const principal = owner || scope?.caller.principal;
  return principal === undefined ? id : `${principal}/${id}`;
}

/**
 * The session store as one caller of the HTTP API sees it: their own sessions only (an admin names
 * another principal with `?owner=`). `list()` shows the caller's sessions by their ids.
 */
export function callerSessions(inner: SessionStore): SessionStore {
  return {
    load: (id) => inner.load(sessionKey(id)),
    append: (id, messages) => inner.append(sessionKey(id), messages),
    reset: (id) => inner.reset(sessionKey(id)),
    async list() {
      const prefix = sessionKey('');
      const all = await inner.list();
      return all
        .filter((s) => s.id.startsWith(prefix) && !s.id.slice(prefix.length).includes('/'))
        .map((s) => ({
          ...s,
          id: s.id.slice(prefix.length),
        }));
    },
    close: inner.close && (() => inner.close?.() ?? Promise.resolve()),
  };
}
