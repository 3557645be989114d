import type { ReadToolCall, ToolCallRecord } from '../core/index.js';

/** The call type the executor runs is the one the protocols read: `ReadToolCall` (this older name still works). */
export type ToolCallInput = ReadToolCall;

/**
 * Emitted when a call starts running (or is refused). `id` is the call's id as the model sent it
 * (`ReadToolCall.id`), the one id a call carries from the parser to the step's record; `tool` is set
 * when the name resolved.
 */
export interface ToolStartRecord {
  index: number;
  id: string;
  name: string;
  tool?: string;
  /** The validated input when it validated, else what the model sent (long values truncated). */
  input: unknown;
}

/** Why a call did not succeed. */
export type ToolErrorKind = 'unknown_tool' | 'disabled' | 'invalid_input' | 'denied' | 'timeout' | 'aborted' | 'failed';

/** Emitted when a call ends; also the `ToolCallRecord` the step keeps. `output` is the observation text. */
export interface ToolEndRecord extends ToolCallRecord {
  index: number;
  /** Runs of the tool, retries included (0 when it never ran). */
  attempts: number;
  errorKind?: ToolErrorKind;
}

/**
 * Builds an end record from its start record. Always the same literal shape (no spread): V8
 * handles a spread plus extra keys on this path an order of magnitude slower, and the executor
 * builds one record per call.
 */
export function toEndRecord(
  start: ToolStartRecord,
  output: string,
  durationMs: number,
  attempts: number,
  errorKind?: ToolErrorKind,
  media?: ToolCallRecord['media'],
  full?: string,
): ToolEndRecord {
  const ok = errorKind === undefined;
  return {
    index: start.index,
    id: start.id,
    name: start.name,
    tool: start.tool,
    input: start.input,
    output,
    full,
    media,
    ok,
    error: ok ? undefined : output,
    errorKind,
    durationMs,
    attempts,
  };
}
