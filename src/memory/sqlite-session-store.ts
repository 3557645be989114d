import type Database from 'better-sqlite3';
import { Message, redactedJson, StoreError } from '../core/index.js';
import { openSqliteTables, type SqliteLocation, sqliteCall } from './open-sqlite.js';
import type { SessionInfo, SessionStore } from './session-store.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS session_messages (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  message TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;`;

/**
 * Chat sessions in SQLite (better-sqlite3, WAL), at `~/.thinkflow/thinkflow.db` by default.
 * The file opens on first use; a corrupt or locked file rejects with a StoreError naming the file
 * and the fix, and is never deleted or overwritten.
 *
 * @example
 * const sessions = new SqliteSessionStore({ dataDir: './.thinkflow' });
 * const agent = new Agent({ model, sessions });
 * await agent.run('And in 2020?', { sessionId: 'paris' });
 */
export class SqliteSessionStore implements SessionStore {
  readonly #location: SqliteLocation;
  #db?: Database.Database;
  #file = '';

  constructor(location: SqliteLocation = {}) {
    this.#location = location;
  }

  #open(): Database.Database {
    if (!this.#db) {
      const { db, file } = openSqliteTables(this.#location, 'create the sessions table in', (opened) =>
        opened.exec(SCHEMA),
      );
      this.#file = file;
      this.#db = db;
    }
    return this.#db;
  }

  async load(sessionId: string): Promise<Message[]> {
    const db = this.#open();
    const rows = sqliteCall(
      this.#file,
      'read',
      () =>
        db.prepare('SELECT seq, message FROM session_messages WHERE session_id = ? ORDER BY seq').all(sessionId) as {
          seq: number;
          message: string;
        }[],
    );
    return rows.map((row) => {
      let value: unknown;
      try {
        value = JSON.parse(row.message);
      } catch {
        value = undefined;
      }
      const parsed = Message.safeParse(value);
      if (!parsed.success) {
        throw new StoreError({
          message: `Session "${sessionId}" in ${this.#file} has an unreadable message (seq ${row.seq}). Fix or delete that row, or reset the session.`,
          cause: parsed.error,
        });
      }
      return parsed.data;
    });
  }

  async append(sessionId: string, messages: Message[]): Promise<void> {
    const valid = messages.map((m, i) => {
      const parsed = Message.safeParse(m);
      if (parsed.success) return parsed.data;
      throw new StoreError({ message: `append: message ${i} is not a valid Message: ${parsed.error.message}` });
    });
    if (valid.length === 0) return;
    const db = this.#open();
    const now = Date.now();
    sqliteCall(this.#file, 'write to', () => {
      const next = db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM session_messages WHERE session_id = ?');
      const insert = db.prepare(
        'INSERT INTO session_messages (session_id, seq, message, created_at) VALUES (?, ?, ?, ?)',
      );
      // IMMEDIATE takes the write lock up front, so two processes appending cannot pick the same seq.
      db.transaction(() => {
        let seq = (next.get(sessionId) as { seq: number }).seq;
        for (const message of valid) insert.run(sessionId, ++seq, redactedJson(message), now);
      }).immediate();
    });
  }

  async reset(sessionId: string): Promise<void> {
    const db = this.#open();
    sqliteCall(this.#file, 'write to', () =>
      db.prepare('DELETE FROM session_messages WHERE session_id = ?').run(sessionId),
    );
  }

  async list(): Promise<SessionInfo[]> {
    const db = this.#open();
    const rows = sqliteCall(
      this.#file,
      'read',
      () =>
        db
          .prepare(
            `SELECT session_id AS id, COUNT(*) AS messages, MIN(created_at) AS createdAt, MAX(created_at) AS updatedAt
           FROM session_messages GROUP BY session_id ORDER BY updatedAt DESC, id`,
          )
          .all() as SessionInfo[],
    );
    return rows;
  }

  async close(): Promise<void> {
    this.#db?.close();
    this.#db = undefined;
  }
}
