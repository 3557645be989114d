import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { Message, RunResult } from '../../core/index.js';
import { apiError, readBody, runFailed } from '../http-error.js';
import type { RunRecord } from '../run-record.js';
import type { RunService } from '../run-service.js';
import { streamRunAnswer } from '../stream-run-answer.js';
import { startRefusal } from './run-routes.js';

const ContentPart = z.object({ type: z.string(), text: z.string().optional() });

/** The part of an OpenAI chat completions request an agent uses; other fields are accepted and ignored. */
export const ChatCompletionBody = z.looseObject({
  /** The agent's name. */
  model: z.string().min(1, 'model must name an agent'),
  messages: z
    .array(
      z.looseObject({
        role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
        content: z.union([z.string(), z.array(ContentPart), z.null()]).optional(),
      }),
    )
    .min(1, 'messages must hold at least one message'),
  stream: z.boolean().optional(),
});
export type ChatCompletionBody = z.infer<typeof ChatCompletionBody>;

type ChatMessage = ChatCompletionBody['messages'][number];

function text(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('');
}

/** The last user message is the run's input; the turns before it become its history. */
function toRunInput(messages: ChatMessage[]): { input: string; history: Message[] } | undefined {
  const last = messages.findLastIndex((m) => m.role === 'user');
  if (last < 0) return undefined;
  const history: Message[] = [];
  for (const m of messages.slice(0, last)) {
    if (m.role === 'system' || m.role === 'developer') history.push({ role: 'system', content: text(m.content) });
    else if (m.role === 'user' || m.role === 'assistant') history.push({ role: m.role, content: text(m.content) });
  }
  return { input: text(messages[last].content), history };
}

function finishReason(result: RunResult): 'stop' | 'length' {
  return result.status === 'done' ? 'stop' : 'length';
}

function usage(result: RunResult) {
  const { promptTokens, completionTokens } = result.usage;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

/** A run that failed or was aborted answers with an error no client retries (see `runFailed`). */
function failure(c: Context, id: string, run: RunRecord | undefined): Response | undefined {
  const result = run?.result;
  if (result && (result.status === 'done' || result.output)) return undefined;
  return runFailed(c, id, result?.error?.message ?? `the run ended ${run?.status ?? 'unknown'}`);
}

/**
 * POST /v1/chat/completions: any OpenAI client can talk to an agent as if it were a model
 * (`model` = the agent's name), with or without `stream`.
 */
export function chatCompletionsRoute(app: Hono, runs: RunService): void {
  app.post('/v1/chat/completions', async (c) => {
    const body = await readBody(c, ChatCompletionBody);
    if (!body.ok) return body.response;
    const { model, messages, stream } = body.value;
    // Runs started here carry text only; an image or file would be lost, so it is refused instead.
    const media = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((p) => p.type !== 'text');
    if (media) {
      return apiError(
        c,
        'invalid_request',
        `Invalid request body: a "${media.type}" content part cannot be sent to an agent through this endpoint; send text parts only.`,
      );
    }
    const request = toRunInput(messages);
    if (!request) return apiError(c, 'invalid_request', 'Invalid request body: messages must hold a user message.');
    const started = await runs.start({ agent: model, ...request, source: 'chat' });
    if (!started.ok) return startRefusal(c, started, model);
    const id = `chatcmpl-${started.run.id}`;
    const created = Math.floor(started.run.createdAt / 1000);
    const base = { id, created, model };

    if (!stream) {
      const run = await runs.wait(started.run.id, c.req.raw.signal);
      const failed = failure(c, started.run.id, run);
      if (failed || !run?.result) return failed ?? runFailed(c, started.run.id, 'the run ended without a result');
      const result = run.result;
      return c.json({
        ...base,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: result.output, refusal: null },
            finish_reason: finishReason(result),
            logprobs: null,
          },
        ],
        usage: usage(result),
      });
    }

    return streamSSE(c, async (sse) => {
      const closed = new AbortController();
      sse.onAbort(() => closed.abort());
      const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
        sse.writeSSE({
          data: JSON.stringify({
            ...base,
            object: 'chat.completion.chunk',
            choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
            ...extra,
          }),
        });
      await chunk({ role: 'assistant', content: '' }, null);
      // The answer goes out as the run produces it, not once it ended.
      const answer = streamRunAnswer(runs, started.run.id, closed.signal);
      let next = await answer.next();
      for (; !next.done; next = await answer.next()) await chunk({ content: next.value }, null);
      const run = next.value;
      if (closed.signal.aborted) return;
      const result = run?.result;
      if (!result || (result.status !== 'done' && !result.output)) {
        const reason = result?.error?.message ?? `the run ended ${run?.status ?? 'unknown'}`;
        await sse.writeSSE({
          data: JSON.stringify({ error: { message: reason, type: 'server_error', code: 'run_failed' } }),
        });
        return;
      }
      await chunk({}, finishReason(result), { usage: usage(result) });
      await sse.writeSSE({ data: '[DONE]' });
    });
  });
}
