import type { Context } from 'hono';
import type { z } from 'zod';
import type { Message } from '../../../core/index.js';
import { apiError, readBody } from '../../http/index.js';
import type { CallerOptions, RunRecord, RunService } from '../../records/index.js';
import { startRefusal } from '../../routes/index.js';
import { lastSeq, schemaOf } from '../../runs/index.js';
import { readClientCallId } from './openai-answer.js';

/**
 * What the OpenAI Chat and Responses routes share on the way in: reading the request and the caller's
 * tools, and starting a run or continuing the one that waits for the caller's tool results.
 */

/** A tool result a caller sends back. */
export interface ToolResult {
  /** The `tool_call_id` / `call_id` it answers. */
  id: string;
  output: string;
  /** Where it was in the request, to name it in an error. */
  field: string;
}

/** A waiting run continued with the caller's tool results: follow its answer after `afterSeq`. */
export interface Continued {
  run: RunRecord;
  afterSeq: number;
  answered: Set<string>;
}

/**
 * Continues the run the results belong to: each answers the `client_tool` question it names. Answers
 * a 400 naming the field when a result names no waiting call (a run that ended, another server's id).
 */
export async function continueWithResults(
  c: Context,
  runs: RunService,
  results: ToolResult[],
): Promise<{ ok: true; continued: Continued } | { ok: false; response: Response }> {
  const refuse = (field: string, why: string) => ({
    ok: false as const,
    response: apiError(c, 'invalid_request', `Invalid request body: ${field}: ${why}`),
  });
  const first = readClientCallId(results[0].id);
  if (!first) return refuse(results[0].field, `"${results[0].id}" is not a tool call this server made.`);
  const run = await runs.get(first.runId);
  if (run?.status !== 'waiting') {
    return refuse(
      results[0].field,
      `the run of tool call "${results[0].id}" is not waiting for tool results (it ended or is unknown); start a new conversation turn.`,
    );
  }
  const afterSeq = await lastSeq(runs, run.id);
  const answered = new Set<string>();
  for (const result of results) {
    const call = readClientCallId(result.id);
    const question = run.questions?.find(
      (q) => call?.runId === run.id && q.id === call?.questionId && q.kind === 'client_tool',
    );
    if (!question) return refuse(result.field, `the run does not wait for tool call "${result.id}".`);
    const outcome = await runs.answer(run.id, { questionId: question.id, approved: true, text: result.output });
    if (outcome !== 'answered') return refuse(result.field, `tool call "${result.id}" was already answered.`);
    answered.add(question.id);
  }
  return { ok: true, continued: { run, afterSeq, answered } };
}

/** What a Chat or Responses request asks: a new turn, tool results for a waiting run, or nothing readable. */
export type OpenAiTurn =
  | { type: 'start'; input: string; history: Message[] }
  | { type: 'results'; results: ToolResult[] }
  | { type: 'invalid'; message: string };

/**
 * Starts the turn's run, or continues the waiting run its tool results answer: the run to follow,
 * and what was continued. A refused start or unknown results answer as `response`.
 */
export async function startOrContinue(
  c: Context,
  runs: RunService,
  request: { agent: string; turn: Exclude<OpenAiTurn, { type: 'invalid' }>; caller?: CallerOptions },
): Promise<{ ok: true; run: RunRecord; continued?: Continued } | { ok: false; response: Response }> {
  const { turn } = request;
  if (turn.type === 'results') {
    const found = await continueWithResults(c, runs, turn.results);
    return found.ok ? { ok: true, run: found.continued.run, continued: found.continued } : found;
  }
  const started = await runs.start({
    agent: request.agent,
    input: turn.input,
    history: turn.history,
    source: 'chat',
    caller: request.caller,
  });
  if (!started.ok) return { ok: false, response: startRefusal(c, started, request.agent) };
  return { ok: true, run: started.run };
}

/** The answer format a request asks for: Chat's `response_format`, Responses' `text.format`, read alike. */
export type AnswerFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema?: Record<string, unknown> };

/**
 * A request's function tools and answer format as the run keeps them (undefined when it has neither),
 * or the 400 message naming `schemaField` when the JSON Schema cannot be read.
 */
export function readCaller(
  tools: CallerOptions['tools'],
  format: AnswerFormat | null | undefined,
  schemaField: string,
): { ok: true; caller?: CallerOptions } | { ok: false; message: string } {
  let outputSchema: CallerOptions['outputSchema'];
  if (format?.type === 'json_object') outputSchema = { schema: { type: 'object' } };
  if (format?.type === 'json_schema') {
    const schema = format.schema ?? { type: 'object' };
    try {
      schemaOf(schema);
    } catch (error) {
      return { ok: false, message: `${schemaField}: ${(error as Error).message}` };
    }
    outputSchema = { name: format.name, schema };
  }
  return { ok: true, caller: tools?.length || outputSchema ? { tools, outputSchema } : undefined };
}

/** How a route follows the run's answer: the final answer alone when it must match a schema, after what a continued run said. */
export function followOf(caller: CallerOptions | undefined, continued: Continued | undefined) {
  return {
    finalOnly: caller?.outputSchema !== undefined,
    afterSeq: continued?.afterSeq,
    answered: continued?.answered,
  };
}

/** An OpenAI request read, with the 400 its route answers for a field it refuses. */
export type OpenAiRequest<T> =
  | { ok: true; request: T; invalid: (message: string) => Response }
  | { ok: false; response: Response };

/**
 * The first step of the Chat Completions and Responses routes: read the body with the route's schema,
 * then refuse a field no thinkflow agent can honour (`unsupported` names it and why) with a 400.
 */
export async function readOpenAiRequest<S extends z.ZodType>(
  c: Context,
  schema: S,
  unsupported: (request: z.infer<S>) => { field: string; why: string } | undefined,
): Promise<OpenAiRequest<z.infer<S>>> {
  const body = await readBody(c, schema);
  if (!body.ok) return body;
  const invalid = (message: string) => apiError(c, 'invalid_request', `Invalid request body: ${message}`);
  const refused = unsupported(body.value);
  if (refused) return { ok: false, response: invalid(`${refused.field} is not supported: ${refused.why}.`) };
  return { ok: true, request: body.value, invalid };
}
