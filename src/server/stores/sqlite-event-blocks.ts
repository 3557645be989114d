import type Database from 'better-sqlite3';
import type { AgentEvent } from '../../core/index.js';
import type { StoredEvent } from '../records/index.js';
import { packEvents, unpackEvents } from './event-block-codec.js';
import type { WriteBatch } from './write-batch.js';

/**
 * Most events in one block. A commit of a run that streamed fast holds thousands of events; kept in
 * one block, every page a reader asks for would decode all of them. Bounded, a page of 1000 events
 * decodes a few blocks wherever it starts, so reading a run costs time linear in its size.
 */
const MAX_BLOCK_EVENTS = 256;

/** The events of one run that one commit appends, numbered `first..last`. */
interface EventBlock {
  runId: string;
  first: number;
  last: number;
  /** As stored. */
  events: unknown[];
}

type BlockRow = { first_seq: number; last_seq?: number; events: string | Buffer };

/** The SQLite store's event log: each run's events in packed blocks of consecutive sequence numbers. */
export interface SqliteEventBlocks {
  /** Writes one block per run and run of consecutive sequence numbers, each event as `encode` stores it. */
  append(events: WriteBatch['events'], encode: (runId: string, seq: number, event: AgentEvent) => unknown): void;
  /** Events as stored (model requests compact, strings shared): only the blocks the page needs are decoded. */
  read(runId: string, afterSeq: number, limit: number): StoredEvent[];
  /** The stored events at `seqs`, each block that holds some decoded once. */
  at(runId: string, seqs: readonly number[]): Map<number, AgentEvent>;
  lastSeq(runId: string): number;
}

export function sqliteEventBlocks(statement: (sql: string) => Database.Statement): SqliteEventBlocks {
  /** The last block decoded that holds more than `MAX_BLOCK_EVENTS` (written by an older version). */
  let oversized: { key: string; events: AgentEvent[] } | undefined;
  /**
   * A block's events. A block written before blocks were bounded may hold a whole run: the last such
   * block decoded is kept, so reading it page by page decodes it once, not once per page.
   */
  const decode = (runId: string, row: BlockRow): AgentEvent[] => {
    const key = `${runId}:${row.first_seq}:${row.events.length}`;
    if (oversized?.key === key) return oversized.events;
    const events = JSON.parse(unpackEvents(row.events)) as AgentEvent[];
    if (events.length > MAX_BLOCK_EVENTS) oversized = { key, events };
    return events;
  };
  return {
    append: (events, encode) => appendBlocks(statement, events, encode),
    read(runId, afterSeq, limit) {
      const rows = statement(
        'SELECT first_seq, events FROM run_event_blocks WHERE run_id = ? AND last_seq > ? ORDER BY last_seq',
      ).iterate(runId, afterSeq) as IterableIterator<BlockRow>;
      const out: StoredEvent[] = [];
      let last = afterSeq;
      for (const row of rows) {
        const events = decode(runId, row);
        for (let i = Math.max(0, last + 1 - row.first_seq); i < events.length && out.length < limit; i++) {
          const seq = row.first_seq + i;
          if (seq <= last) continue;
          out.push({ seq, event: events[i] });
          last = seq;
        }
        if (out.length >= limit) break;
      }
      return out;
    },
    at(runId, seqs) {
      const wanted = [...new Set(seqs)].sort((a, b) => a - b);
      const block = statement(
        'SELECT first_seq, last_seq, events FROM run_event_blocks WHERE run_id = ? AND last_seq >= ? ORDER BY last_seq LIMIT 1',
      );
      const out = new Map<number, AgentEvent>();
      for (let i = 0; i < wanted.length; ) {
        const row = block.get(runId, wanted[i]) as Required<BlockRow> | undefined;
        if (!row) break;
        if (row.first_seq > wanted[i]) {
          i++;
          continue;
        }
        const events = decode(runId, row);
        for (; i < wanted.length && wanted[i] <= row.last_seq; i++) {
          const event = events[wanted[i] - row.first_seq];
          if (event !== undefined) out.set(wanted[i], event);
        }
      }
      return out;
    },
    lastSeq(runId) {
      const row = statement('SELECT MAX(last_seq) AS seq FROM run_event_blocks WHERE run_id = ?').get(runId) as {
        seq: number | null;
      };
      return row.seq ?? 0;
    },
  };
}

/** Writes one block per run and run of consecutive sequence numbers (at most `MAX_BLOCK_EVENTS`), packed. */
function appendBlocks(
  statement: (sql: string) => Database.Statement,
  events: WriteBatch['events'],
  encode: (runId: string, seq: number, event: AgentEvent) => unknown,
): void {
  const insert = statement(
    'INSERT OR REPLACE INTO run_event_blocks (run_id, first_seq, last_seq, events) VALUES (?, ?, ?, ?)',
  );
  const write = (block: EventBlock) => insert.run(block.runId, block.first, block.last, packEvents(block.events));
  const open = new Map<string, EventBlock>();
  for (const { runId, seq, event: emitted } of events) {
    const event = encode(runId, seq, emitted);
    const block = open.get(runId);
    if (block && seq === block.last + 1 && block.events.length < MAX_BLOCK_EVENTS) {
      block.last = seq;
      block.events.push(event);
      continue;
    }
    if (block) write(block);
    open.set(runId, { runId, first: seq, last: seq, events: [event] });
  }
  for (const block of open.values()) write(block);
}
