import type { ReadToolCall } from '../core/index.js';
import { serializeOutput } from './serialize-output.js';

/**
 * One call a tool made to another tool (a code-mode program's `tools.x(…)`), as its run records it.
 * `waiting` had not started (it waits for a person or a slot), `started` may have run, `ended` has
 * its result: a replay answers it from here instead of running it again.
 */
export interface NestedCallRecord {
  id: string;
  name: string;
  input: unknown;
  state: 'waiting' | 'started' | 'ended';
  ok?: boolean;
  /** The tool's output as JSON (absent for none). */
  value?: unknown;
  error?: string;
}

/** What a tool that calls tools keeps durably for one of its calls, so a rerun after a restart takes the same path. */
export interface NestedJournal {
  /** Seeds the program's `Math.random`. */
  seed: number;
  /** Where the program's `Date.now()` starts. */
  clock: number;
  /** The calls in the order the program made them. */
  calls: NestedCallRecord[];
}

/** How a nested call ended: its output (`value` as JSON, `output` as the observation text) or the error the caller sees. */
export type NestedCallOutcome = { ok: true; value: unknown; output: string } | { ok: false; error: string };

/**
 * The tools nested calls resolve against, as far as they need them: a `ToolRegistry` (structural here,
 * so the tool types and the registry do not import each other).
 */
export interface NestedToolSource {
  get(name: string): { name: string; idempotent?: boolean; callableFromCode?: boolean } | undefined;
  list(): readonly { name: string; callableFromCode?: boolean }[];
}

/** Told when a nested call waits for a person or a slot, and again just before it starts after that wait. */
export interface NestedCallHooks {
  /** Stops the call (the calling program was stopped). */
  signal?: AbortSignal;
  onWait?(): void;
  beforeStart?(): void | Promise<void>;
}

/**
 * What a run offers a tool that calls other tools (code mode): each call goes through the run's
 * executor (validation, approvals, timeouts, retries), its events nest under the calling tool's call
 * (`parentCallId`), it counts in the run's stats, and the tool's journal is written with the run's
 * checkpoints, so a resumed run can answer finished calls from it.
 */
export interface NestedCalls {
  /** The run's own tools (code mode's protocol exposes these). */
  readonly registry: NestedToolSource;
  /** The journal this call wrote before a restart, when the run resumed in the middle of it. */
  readonly recorded?: NestedJournal;
  /**
   * The program's seed and clock from a durable engine's journal (recorded once, read back on replay).
   * Present only when such an engine runs the run.
   */
  draw?(): Promise<{ seed: number; clock: number }>;
  /** Writes the journal with the run's checkpoint; resolves once it is written (at once when nothing is kept). */
  save(journal: NestedJournal): Promise<void>;
  /** Runs one call against `registry` (the run's own when omitted). Never rejects for tool problems. */
  run(call: ReadToolCall, registry: NestedToolSource | undefined, hooks?: NestedCallHooks): Promise<NestedCallOutcome>;
  /** Ends the run with this answer once the step's calls are done (code mode's `final_answer`). */
  end(answer: string): void;
  /** Fails the run once the step's calls are done (a replay that diverged). */
  fail(error: Error): void;
}

/** A tool's output as the JSON a program receives: objects through JSON (bigints as strings, cycles marked). */
export function toJsonValue(value: unknown): unknown {
  if (typeof value === 'bigint') return String(value);
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? undefined : value;
  return JSON.parse(serializeOutput(value));
}
