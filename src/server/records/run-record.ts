import { z } from 'zod';
import { type AgentEvent, Message, type RunResult } from '../../core/index.js';

/** Where a run stands: waiting its turn, running, paused for a person, or one of the final `RunStatus`es. */
export const ServerRunStatus = z.enum([
  'queued',
  'running',
  'waiting',
  'done',
  'max_steps',
  'loop_detected',
  'aborted',
  'failed',
  'budget_exceeded',
]);
export type ServerRunStatus = z.infer<typeof ServerRunStatus>;

/** Statuses a run can still leave; the server resumes runs in these after a restart. */
export const UNFINISHED: readonly ServerRunStatus[] = ['queued', 'running', 'waiting'];

/** True once a run has ended and will not change again. */
export function isFinished(status: ServerRunStatus): boolean {
  return !UNFINISHED.includes(status);
}

/**
 * A question a paused run waits on: approve a `needsApproval` call, answer `ask_user`, or return the
 * result of a `client_tool` call (a tool the caller runs itself; the answer's `text` is its output).
 */
export const PendingQuestion = z.object({
  id: z.string(),
  kind: z.enum(['approval', 'question', 'client_tool']),
  tool: z.string(),
  input: z.unknown(),
  question: z.string().optional(),
  /** The tool call that asks (the model's id), so a protocol adapter can answer the question of one call. */
  callId: z.string().optional(),
  /** Set by POST /v1/runs/:id/approvals; the run picks it up and goes on. */
  answer: z.object({ approved: z.boolean(), text: z.string().optional() }).optional(),
});
export type PendingQuestion = z.infer<typeof PendingQuestion>;

/** A tool the caller runs itself (an OpenAI request's `tools`): the run waits when the model calls it. */
export const ClientTool = z.object({
  name: z.string(),
  description: z.string().optional(),
  /** JSON Schema of the input object. */
  parameters: z.record(z.string(), z.unknown()).optional(),
});
export type ClientTool = z.infer<typeof ClientTool>;

/** What a caller asked of one run beyond its input: its own tools, and the JSON Schema the answer must match. */
export const CallerOptions = z.object({
  tools: z.array(ClientTool).optional(),
  outputSchema: z.object({ name: z.string().optional(), schema: z.record(z.string(), z.unknown()) }).optional(),
});
export type CallerOptions = z.infer<typeof CallerOptions>;

/** How a run was started. */
export const RunSource = z.enum(['api', 'chat', 'hook', 'schedule']);
export type RunSource = z.infer<typeof RunSource>;

/**
 * Where a forked run came from (POST /v1/runs/:id/fork): the run and the step it ran again from, and
 * the edited messages it started with, standing for the prompt up to step `edited.steps`.
 */
export const RunFork = z.object({
  runId: z.string(),
  fromStep: z.number().int(),
  edited: z.object({ messages: z.array(Message), steps: z.number().int() }).optional(),
});
export type RunFork = z.infer<typeof RunFork>;

/** One run as the server stores and returns it. `result` is the agent's `RunResult` once it ended. */
export const RunRecord = z.object({
  id: z.string(),
  agent: z.string(),
  input: z.string(),
  /** Earlier conversation turns (an OpenAI-style chat request's messages before the last). */
  history: z.array(Message).optional(),
  /** The caller's client-side tools and output schema (an OpenAI request's `tools` and `response_format`). */
  caller: CallerOptions.optional(),
  status: ServerRunStatus,
  source: RunSource,
  /** The principal who started it (absent on an open server, and for runs stored before owners). */
  owner: z.string().optional(),
  /** Set for a fork of another run: it started from that run's steps before `fromStep`. */
  forkedFrom: RunFork.optional(),
  /**
   * The conversation thread the run is a turn of: a chat id, an AG-UI thread, an A2A context, or a
   * native request's `threadId`. Runs of one thread share a workspace when it is set `scope: thread`.
   */
  thread: z.string().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
  result: z.custom<RunResult>((value) => typeof value === 'object' && value !== null).optional(),
  questions: z.array(PendingQuestion).optional(),
  cancelRequested: z.boolean().optional(),
});
export type RunRecord = z.infer<typeof RunRecord>;

/** The fields of a run that change after it is created. */
export type RunPatch = Partial<Pick<RunRecord, 'status' | 'result' | 'questions' | 'cancelRequested' | 'updatedAt'>>;

/** One event of a run's log, numbered from 1 (the SSE `id:`). */
export interface StoredEvent {
  seq: number;
  event: AgentEvent;
}
