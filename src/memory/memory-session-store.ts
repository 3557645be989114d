import { Message, redactedJson, StoreError } from '../core/index.js';
import type { SessionInfo, SessionStore } from './session-store.js';

interface Session {
  /** Each message as stored: redacted JSON, so a caller's later mutation never reaches the store. */
  messages: string[];
  createdAt: number;
  updatedAt: number;
}

/**
 * Keeps conversations in memory, gone with the process: the session store for browsers, Workers and
 * tests, where SQLite cannot load. It checks and redacts messages exactly as `SqliteSessionStore` does.
 *
 * @example
 * const agent = new Agent({ model, sessions: memorySessionStore() });
 */
export function memorySessionStore(): SessionStore {
  const sessions = new Map<string, Session>();
  return {
    async load(sessionId) {
      return (sessions.get(sessionId)?.messages ?? []).map((json) => Message.parse(JSON.parse(json)));
    },
    async append(sessionId, messages) {
      const valid = messages.map((m, i) => {
        const parsed = Message.safeParse(m);
        if (parsed.success) return parsed.data;
        throw new StoreError({ message: `append: message ${i} is not a valid Message: ${parsed.error.message}` });
      });
      if (valid.length === 0) return;
      const now = Date.now();
      const session = sessions.get(sessionId) ?? { messages: [], createdAt: now, updatedAt: now };
      session.messages.push(...valid.map((m) => redactedJson(m)));
      session.updatedAt = now;
      sessions.set(sessionId, session);
    },
    async reset(sessionId) {
      sessions.delete(sessionId);
    },
    async list() {
      const infos: SessionInfo[] = [...sessions].map(([id, s]) => ({
        id,
        messages: s.messages.length,
        createdAt: s.createdAt,
        updatedAt: s.updatedAt,
      }));
      return infos.sort((a, b) => b.updatedAt - a.updatedAt);
    },
  };
}
