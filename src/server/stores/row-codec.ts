import type { RunPatch, RunRecord } from '../records/index.js';

/** A `runs` row as both stores keep it: plain columns plus JSON text. */
export interface RunRow {
  id: string;
  agent: string;
  input: string;
  history: string | null;
  status: string;
  source: string;
  created_at: number | string;
  updated_at: number | string;
  result: string | null;
  questions: string | null;
  cancel_requested: number | boolean | null;
  /** Absent in a row read before the column was added. */
  owner?: string | null;
  caller?: string | null;
  forked_from?: string | null;
  thread?: string | null;
}

/** Column name for each patchable field, and how its value is written. */
export const PATCH_COLUMNS: Record<keyof RunPatch, string> = {
  status: 'status',
  result: 'result',
  questions: 'questions',
  cancelRequested: 'cancel_requested',
  updatedAt: 'updated_at',
};

export function patchValue(key: keyof RunPatch, value: unknown, booleanAsInt: boolean): unknown {
  if (key === 'result' || key === 'questions') return value === undefined ? null : JSON.stringify(value);
  if (key === 'cancelRequested') return booleanAsInt ? (value ? 1 : 0) : Boolean(value);
  return value;
}

export function rowToRecord(row: RunRow): RunRecord {
  const record: RunRecord = {
    id: row.id,
    agent: row.agent,
    input: row.input,
    status: row.status as RunRecord['status'],
    source: row.source as RunRecord['source'],
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
  if (row.history) record.history = JSON.parse(row.history);
  if (row.result) record.result = JSON.parse(row.result);
  if (row.questions) record.questions = JSON.parse(row.questions);
  if (row.cancel_requested) record.cancelRequested = true;
  if (row.owner) record.owner = row.owner;
  if (row.caller) record.caller = JSON.parse(row.caller);
  if (row.forked_from) record.forkedFrom = JSON.parse(row.forked_from);
  if (row.thread) record.thread = row.thread;
  return record;
}
