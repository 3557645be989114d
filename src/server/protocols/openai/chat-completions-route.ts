import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { type Message, redactText } from '../../../core/index.js';
import { SEGMENT_BREAK } from '../../../protocols/index.js';
import { runFailed } from '../../http/index.js';
import type { RunService } from '../../records/index.js';
import { type AnswerEnd, collectRunAnswer, streamRunAnswer } from '../../runs/index.js';
import {
  type ChatCompletionBody,
  ChatCompletionBody as ChatCompletionSchema,
  type ChatMessage,
  unsupportedChatField,
} from './chat-completions-wire.js';
import { chatUsage, clientCallId, endFailure, USAGE_ESTIMATED_HEADER } from './openai-answer.js';
import type { OpenAiTurn, ToolResult } from './openai-turns.js';
import { followOf, readCaller, readOpenAiRequest, startOrContinue } from './openai-turns.js';

export { ChatCompletionBody } from './chat-completions-wire.js';

function text(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('');
}

/** One chat message as a thinkflow message: tool turns stay tool turns. */
function toMessage(m: ChatMessage): Message {
  if (m.role === 'system' || m.role === 'developer') return { role: 'system', content: text(m.content) };
  if (m.role === 'tool') return { role: 'tool', toolCallId: m.tool_call_id ?? '', content: text(m.content) };
  if (m.role === 'assistant') {
    const calls = m.tool_calls?.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
    return calls?.length
      ? { role: 'assistant', content: text(m.content), toolCalls: calls }
      : { role: 'assistant', content: text(m.content) };
  }
  return { role: 'user', content: text(m.content) };
}

/**
 * What the messages ask: tool results after the last assistant turn continue the run that waits for
 * them; otherwise the last user message is the run's input and the turns before it its history.
 */
function readTurn(messages: ChatMessage[]): OpenAiTurn {
  const last = messages.length - 1;
  if (messages[last].role === 'tool') {
    const results: ToolResult[] = [];
    for (let i = last; i >= 0 && messages[i].role === 'tool'; i--) {
      const m = messages[i];
      if (!m.tool_call_id)
        return { type: 'invalid', message: `messages[${i}].tool_call_id is required on a tool message.` };
      results.unshift({ id: m.tool_call_id, output: text(m.content), field: `messages[${i}].tool_call_id` });
    }
    return { type: 'results', results };
  }
  const user = messages.findLastIndex((m) => m.role === 'user');
  if (user < 0) return { type: 'invalid', message: 'messages must hold a user message.' };
  if (user !== last) {
    return {
      type: 'invalid',
      message: `messages[${last}] (${messages[last].role}) comes after the last user message; end with the user's turn or with tool results.`,
    };
  }
  return { type: 'start', input: text(messages[user].content), history: messages.slice(0, user).map(toMessage) };
}

/** The request's function tools and `response_format` as the run keeps them. */
function readChatCaller(body: ChatCompletionBody) {
  const tools = body.tools?.map((t) => ({
    name: t.function.name,
    description: t.function.description,
    parameters: t.function.parameters,
  }));
  const format = body.response_format;
  const answer = format?.type === 'json_schema' ? { type: format.type, ...format.json_schema } : format;
  return readCaller(tools, answer, 'response_format.json_schema.schema');
}

/**
 * POST /v1/chat/completions: any OpenAI client can talk to an agent as if it were a model
 * (`model` = the agent's name), streamed or not, with its own function tools (the run waits while the
 * client runs them: `finish_reason: "tool_calls"`, and the client's next request with the `tool`
 * results continues it) and `response_format` JSON Schema (the final answer must match). A field an
 * agent cannot honour answers 400 naming it.
 */
export function chatCompletionsRoute(app: Hono, runs: RunService): void {
  app.post('/v1/chat/completions', async (c) => {
    const read = await readOpenAiRequest(c, ChatCompletionSchema, unsupportedChatField);
    if (!read.ok) return read.response;
    const { request, invalid } = read;
    // Runs started here carry text only; an image or file would be lost, so it is refused instead.
    const media = request.messages
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .find((p) => p.type !== 'text');
    if (media) {
      return invalid(
        `a "${media.type}" content part cannot be sent to an agent through this endpoint; send text parts only.`,
      );
    }
    const caller = readChatCaller(request);
    if (!caller.ok) return invalid(caller.message);
    const turn = readTurn(request.messages);
    if (turn.type === 'invalid') return invalid(turn.message);

    const begun = await startOrContinue(c, runs, { agent: request.model, turn, caller: caller.caller });
    if (!begun.ok) return begun.response;
    const { id: runId, createdAt } = begun.run;
    const answer: ChatAnswer = {
      runs,
      runId,
      base: { id: `chatcmpl-${runId}`, created: Math.floor(createdAt / 1000), model: request.model },
      follow: followOf(caller.caller, begun.continued),
    };
    if (!request.stream) return chatCompletion(c, answer);
    return streamChatCompletion(c, answer, request.stream_options?.include_usage === true);
  });
}

/** One answer to a Chat Completions request: the run to follow, and the fields every chunk carries. */
interface ChatAnswer {
  runs: RunService;
  runId: string;
  base: { id: string; created: number; model: string };
  follow: ReturnType<typeof followOf>;
}

async function chatCompletion(c: Context, { runs, runId, base, follow }: ChatAnswer): Promise<Response> {
  const { segments, end } = await collectRunAnswer(runs, runId, { ...follow, signal: c.req.raw.signal });
  const failed = endFailure(end);
  if (failed || end.type === 'aborted') return runFailed(c, runId, failed ?? 'the request was aborted');
  // Redacted as a whole: a secret split across streamed pieces is whole again here.
  const content = redactText(segments.join(SEGMENT_BREAK));
  const calls = toolCalls(end);
  if (end.usage.estimated) c.header(USAGE_ESTIMATED_HEADER, 'true');
  return c.json({
    ...base,
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: calls && content === '' ? null : content,
          refusal: null,
          ...(calls ? { tool_calls: calls } : {}),
        },
        finish_reason: finishReason(end),
        logprobs: null,
      },
    ],
    usage: chatUsage(end.usage),
  });
}

function streamChatCompletion(c: Context, { runs, runId, base, follow }: ChatAnswer, includeUsage: boolean): Response {
  return streamSSE(c, async (sse) => {
    const closed = new AbortController();
    sse.onAbort(() => closed.abort());
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      sse.writeSSE({
        data: JSON.stringify({
          ...base,
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
          ...(includeUsage ? { usage: null } : {}),
        }),
      });
    await chunk({ role: 'assistant', content: '' }, null);
    // The answer goes out as the run produces it, not once it ended.
    const answer = streamRunAnswer(runs, runId, { ...follow, signal: closed.signal });
    let sent = false;
    let next = await answer.next();
    for (; !next.done; next = await answer.next()) {
      await chunk({ content: (next.value.start && sent ? SEGMENT_BREAK : '') + next.value.text }, null);
      sent = true;
    }
    const end = next.value;
    if (end.type === 'aborted') return;
    const failed = endFailure(end);
    if (failed) {
      const error = {
        message: `Agent run ${runId} did not answer: ${failed}`,
        type: 'server_error',
        code: 'run_failed',
      };
      await sse.writeSSE({ data: JSON.stringify({ error }) });
      return;
    }
    for (const [index, call] of (toolCalls(end) ?? []).entries())
      await chunk({ tool_calls: [{ index, ...call }] }, null);
    await chunk({}, finishReason(end));
    if (includeUsage) {
      await sse.writeSSE({
        data: JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage: chatUsage(end.usage) }),
      });
    }
    await sse.writeSSE({ data: '[DONE]' });
  });
}

/** The calls of the caller's own tools the run waits on, as OpenAI tool calls. */
function toolCalls(end: AnswerEnd) {
  if (end.type !== 'client_tools') return undefined;
  return end.calls.map((q) => ({
    id: clientCallId(end.run.id, q),
    type: 'function' as const,
    function: { name: q.tool, arguments: JSON.stringify(q.input ?? {}) },
  }));
}

function finishReason(end: AnswerEnd): 'stop' | 'length' | 'tool_calls' {
  if (end.type === 'client_tools') return 'tool_calls';
  return end.type === 'ended' && end.run?.result?.status === 'done' ? 'stop' : 'length';
}
