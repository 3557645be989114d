import type { ToolCallRecord, ToolSpec } from '../core/index.js';
import type { ReadToolCall } from '../protocols/index.js';
import type { AnyTool } from '../tools/index.js';

/** Callbacks a tool run reports through, so the loop can emit `tool_start` and `tool_end` as they happen. */
export interface ToolRunHooks {
  signal: AbortSignal;
  onStart?(call: ReadToolCall, tool: string, input: unknown): void;
  onEnd?(record: ToolCallRecord): void;
  /** A call waits (for approval or a free slot): it has not started. */
  onWait?(callId: string): void;
  /** Awaited before a call that waited starts; when it fails the call is not made. */
  beforeStart?(callId: string): void | Promise<void>;
}

/** What the loop needs from the tool layer: the specs to show the model, and a way to run a step's calls. */
export interface ToolRunner {
  names(): string[];
  /** The enabled tools of this run. */
  list(): readonly AnyTool[];
  specs(): ToolSpec[];
  /** Runs the calls (concurrently where allowed): one record per call, in call order, directly when none had to wait. */
  run(calls: ReadToolCall[], hooks: ToolRunHooks): ToolCallRecord[] | Promise<ToolCallRecord[]>;
  /** Whether a tool may safely run twice (durable runs retry an interrupted call only then). */
  isIdempotent(name: string): boolean;
}
