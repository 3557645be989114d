import { z } from 'zod';
import { type AgentEvent, Message, type RunResult } from '../core/index.js';

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

/** A question a paused run waits on: approve a `needsApproval` call, or answer `ask_user`. */
export const PendingQuestion = z.object({
  id: z.string(),
  kind: z.enum(['approval', 'question']),
  tool: z.string(),
  input: z.unknown(),
  question: z.string().optional(),
  /** The tool call that asks, so a protocol adapter can answer the question of one call. */
  callId: z.string().optional(),
  /** Set by POST /v1/runs/:id/approvals; the run picks it up and goes on. */
  answer: z.object({ approved: z.boolean(), text: z.string().optional() }).optional(),
});
export type PendingQuestion = z.infer<typeof PendingQuestion>;

/** How a run was started. */
export const RunSource = z.enum(['api', 'chat', 'hook', 'schedule']);
export type RunSource = z.infer<typeof RunSource>;

/** One run as the server stores and returns it. `result` is the agent's `RunResult` once it ended. */
export const RunRecord = z.object({
  id: z.string(),
  agent: z.string(),
  input: z.string(),
  /** Earlier conversation turns (an OpenAI-style chat request's messages before the last). */
  history: z.array(Message).optional(),
  status: ServerRunStatus,
  source: RunSource,
  /** The principal who started it (absent on an open server, and for runs stored before owners). */
  owner: z.string().optional(),
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
