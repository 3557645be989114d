import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type {
  EventStore,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** One MCP session over streamable HTTP: its server, its transport, and when it was last used. */
export interface McpSession {
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  lastSeen: number;
}

/** Limits on the sessions one endpoint keeps. */
export interface McpSessionLimits {
  /** Sessions kept at once; the least recently used is closed to make room (default 1000). */
  maxSessions?: number;
  /** A session unused this long is closed (default 30 minutes). */
  idleMs?: number;
}

/** The live sessions of one endpoint, closed when idle or when there are too many. */
export interface McpSessions {
  get(id: string): McpSession | undefined;
  add(id: string, session: McpSession): void;
  delete(id: string): void;
  all(): McpSession[];
  close(): Promise<void>;
}

/** Creates the session table; a sweep (unref'd, so it never keeps the process alive) closes idle ones. */
export function mcpSessions(limits: McpSessionLimits = {}): McpSessions {
  const max = limits.maxSessions ?? 1000;
  const idleMs = limits.idleMs ?? 30 * 60_000;
  const table = new Map<string, McpSession>();
  const drop = (id: string) => {
    const session = table.get(id);
    if (!session) return;
    table.delete(id);
    void session.server.close().catch(() => undefined);
  };
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of table) if (now - session.lastSeen > idleMs) drop(id);
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();
  return {
    get(id) {
      const session = table.get(id);
      if (session) session.lastSeen = Date.now();
      return session;
    },
    add(id, session) {
      if (table.size >= max) {
        const oldest = [...table.entries()].sort((a, b) => a[1].lastSeen - b[1].lastSeen)[0];
        if (oldest) drop(oldest[0]);
      }
      table.set(id, session);
    },
    delete: drop,
    all: () => [...table.values()],
    async close() {
      clearInterval(sweep);
      const open = [...table.keys()];
      for (const id of open) drop(id);
    },
  };
}

/**
 * A small in-memory event store so a client whose SSE stream broke can resume with `Last-Event-ID`
 * (the last `perStream` events of each stream are kept).
 */
export function memoryEventStore(perStream = 200): EventStore {
  const streams = new Map<string, Array<{ id: string; message: JSONRPCMessage }>>();
  let counter = 0;
  return {
    async storeEvent(streamId, message) {
      const id = `${streamId}::${(++counter).toString().padStart(12, '0')}`;
      const events = streams.get(streamId) ?? [];
      events.push({ id, message });
      if (events.length > perStream) events.shift();
      streams.set(streamId, events);
      return id;
    },
    async getStreamIdForEventId(eventId) {
      return eventId.split('::')[0];
    },
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = lastEventId.split('::')[0];
      for (const event of streams.get(streamId) ?? []) {
        if (event.id > lastEventId) await send(event.id, event.message);
      }
      return streamId;
    },
  };
}

export const newSessionId = (): string => randomUUID();
