import type Database from 'better-sqlite3';
import { analyzeText } from '../core/index.js';

/**
 * The full-text index of the memories: a contentless FTS5 table fed with `analyzeText` output (CJK
 * segmented, everything else as written), so `unicode61` sees Chinese and Japanese words instead of
 * whole runs of characters. Contentless, because the analysed text lives nowhere else: deletes go by
 * rowid (`contentless_delete`, SQLite 3.43+) and never need the indexed tokens back, so a newer ICU
 * segmenting differently cannot leave stale postings behind.
 */
const INDEX_SCHEMA = `
CREATE VIRTUAL TABLE memories_fts USING fts5(
  text, tags, content = '', contentless_delete = 1, tokenize = 'porter unicode61'
);
CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
  DELETE FROM memories_fts WHERE rowid = old.rowid;
  DELETE FROM memory_tags WHERE memory_rowid = old.rowid;
END;`;

const BATCH = 2_000;

/** Whether the file's index is the analysed one (the pre-0.2 index mirrored the raw text through triggers). */
function isAnalyzed(db: Database.Database): boolean {
  const sql = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'memories_fts'").pluck().get();
  return typeof sql === 'string' && sql.includes('contentless_delete');
}

/**
 * Creates the analysed index, or migrates a store written before it: the old external-content index
 * and its triggers are dropped and every memory is indexed again, in one write transaction (a second
 * process opening the same file waits, then finds the work done).
 */
export function ensureAnalyzedIndex(db: Database.Database): void {
  if (isAnalyzed(db)) return;
  db.transaction(() => {
    if (isAnalyzed(db)) return;
    db.exec(
      'DROP TRIGGER IF EXISTS memories_ai; DROP TRIGGER IF EXISTS memories_ad; DROP TABLE IF EXISTS memories_fts;',
    );
    db.exec(INDEX_SCHEMA);
    const index = indexMemory(db);
    const page = db.prepare('SELECT rowid, text, tags FROM memories WHERE rowid > ? ORDER BY rowid LIMIT ?');
    for (let after = 0; ; ) {
      const rows = page.all(after, BATCH) as { rowid: number; text: string; tags: string }[];
      if (!rows.length) break;
      for (const row of rows) index(row.rowid, row.text, parseTags(row.tags));
      after = rows[rows.length - 1].rowid;
    }
  }).immediate();
}

/** A statement that indexes one memory (call it inside the transaction that inserts the row). */
export function indexMemory(db: Database.Database): (rowid: number | bigint, text: string, tags: string[]) => void {
  const insert = db.prepare('INSERT INTO memories_fts (rowid, text, tags) VALUES (?, ?, ?)');
  return (rowid, text, tags) => {
    insert.run(rowid, analyzeText(text), analyzeText(tags.join(' ')));
  };
}

function parseTags(json: string): string[] {
  try {
    const tags: unknown = JSON.parse(json);
    return Array.isArray(tags) ? tags.map(String) : [];
  } catch {
    return [];
  }
}
