import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Message } from '../../../core/index.js';
import type { SessionStore } from '../../../memory/index.js';
import { type AnswerPart, type AnswerPartReader, createAnswerPartReader } from '../../../protocols/index.js';
import { apiError } from '../../http/index.js';
import type { RunService } from '../../records/index.js';
import { agentRunOf, continueAnswered, readAgentRequest, startRefusal } from '../../routes/index.js';
import { type CallAnswer, followAnswerParts, keepConversation } from '../../runs/index.js';
import {
  UI_STREAM_HEADERS,
  type UiMessage,
  type UiMessageChunk,
  type UiMessagePart,
  UiStreamBody,
  UiThinkflowMetadata,
} from './ui-stream-wire-schema.js';

/** What the UI message stream route works with. */
export interface UiStreamRouteContext {
  runs: RunService;
  /** Where each chat's conversation is kept, under the chat id (when the server has a session store). */
  sessions?: SessionStore;
  onError: (error: unknown) => void;
}

const isToolPart = (part: UiMessagePart) => part.type === 'dynamic-tool' || part.type.startsWith('tool-');
const toolName = (part: UiMessagePart) => (part.type === 'dynamic-tool' ? (part.toolName ?? '') : part.type.slice(5));

/** The run an assistant message came from: its metadata, else the run id its approval ids carry. */
function runOf(message: UiMessage): string | undefined {
  const meta = UiThinkflowMetadata.safeParse(message.metadata);
  if (meta.success) return meta.data.thinkflow.runId;
  const approval = message.parts.find((p) => p.approval?.id.includes(':'))?.approval?.id;
  return approval?.slice(0, approval.indexOf(':'));
}

/** What the client answered in the last assistant message: approvals, and `ask_user` outputs. */
function answersIn(message: UiMessage): CallAnswer[] {
  const answers: CallAnswer[] = [];
  for (const part of message.parts) {
    if (!isToolPart(part) || !part.toolCallId) continue;
    if (part.state === 'approval-responded' && part.approval) {
      const approved = part.approval.approved === true;
      answers.push({ callId: part.toolCallId, answer: { approved, text: part.approval.reason ?? undefined } });
    } else if (part.state === 'output-available' && toolName(part) === 'ask_user') {
      const text = typeof part.output === 'string' ? part.output : JSON.stringify(part.output);
      answers.push({ callId: part.toolCallId, answer: { approved: true, text } });
    }
  }
  return answers;
}

/** A user message's text, or the field and type of the first part an agent run cannot take. */
function userText(message: UiMessage, index: number): { text: string } | { field: string; type: string } {
  const texts: string[] = [];
  for (const [i, part] of message.parts.entries()) {
    if (part.type === 'text') texts.push(part.text ?? '');
    else if (part.type !== 'step-start' && !part.type.startsWith('data-')) {
      return { field: `messages[${index}].parts[${i}]`, type: part.type };
    }
  }
  return { text: texts.join('') };
}

/** Earlier UI messages as the run's history: text turns, and tool invocations with results as tool turns. */
function uiHistory(messages: UiMessage[]): Message[] {
  const history: Message[] = [];
  for (const message of messages) {
    if (message.role !== 'assistant') {
      const content = message.parts.map((p) => (p.type === 'text' ? (p.text ?? '') : '')).join('');
      history.push({ role: message.role, content });
      continue;
    }
    let text = '';
    let calls: { id: string; name: string; input: unknown; output: string }[] = [];
    const flush = () => {
      if (text === '' && calls.length === 0) return;
      const toolCalls = calls.map((c) => ({ id: c.id, name: c.name, arguments: JSON.stringify(c.input ?? {}) }));
      history.push({ role: 'assistant', content: text, ...(toolCalls.length ? { toolCalls } : {}) });
      for (const c of calls) history.push({ role: 'tool', toolCallId: c.id, name: c.name, content: c.output });
      text = '';
      calls = [];
    };
    for (const part of message.parts) {
      if (part.type === 'step-start') flush();
      else if (part.type === 'text') text += part.text ?? '';
      else if (isToolPart(part) && part.toolCallId) {
        const output =
          part.state === 'output-available'
            ? typeof part.output === 'string'
              ? part.output
              : JSON.stringify(part.output)
            : part.state === 'output-error'
              ? (part.errorText ?? 'The tool failed.')
              : part.state === 'output-denied'
                ? 'The call was denied by the user and was not made.'
                : undefined;
        // A call with no result yet was never part of a finished turn.
        if (output !== undefined) calls.push({ id: part.toolCallId, name: toolName(part), input: part.input, output });
      }
    }
    flush();
  }
  return history;
}

/** The UI message stream chunks of one answer part. */
function chunksOf(part: AnswerPart, runId: string): UiMessageChunk[] {
  switch (part.type) {
    case 'step_start':
      return [{ type: 'start-step' }];
    case 'step_end':
      return [{ type: 'finish-step' }];
    case 'text_start':
    case 'text_end':
      return [{ type: part.type === 'text_start' ? 'text-start' : 'text-end', id: part.id }];
    case 'text_delta':
      return [{ type: 'text-delta', id: part.id, delta: part.text }];
    case 'reasoning_start':
    case 'reasoning_end':
      return [{ type: part.type === 'reasoning_start' ? 'reasoning-start' : 'reasoning-end', id: part.id }];
    case 'reasoning_delta':
      return [{ type: 'reasoning-delta', id: part.id, delta: part.text }];
    case 'tool_call':
      return [
        { type: 'tool-input-start', toolCallId: part.callId, toolName: part.tool, dynamic: true },
        { type: 'tool-input-delta', toolCallId: part.callId, inputTextDelta: part.arguments },
        {
          type: 'tool-input-available',
          toolCallId: part.callId,
          toolName: part.tool,
          input: part.input,
          dynamic: true,
        },
      ];
    case 'tool_result':
      if (part.denied) return [{ type: 'tool-output-denied', toolCallId: part.callId }];
      return part.ok
        ? [{ type: 'tool-output-available', toolCallId: part.callId, output: part.output, dynamic: true }]
        : [{ type: 'tool-output-error', toolCallId: part.callId, errorText: part.error ?? part.output, dynamic: true }];
    case 'question':
      // An `ask_user` question stays an open tool call: the client answers it with `addToolOutput`.
      return part.kind === 'approval'
        ? [{ type: 'tool-approval-request', approvalId: `${runId}:${part.callId}`, toolCallId: part.callId }]
        : [];
    case 'answered':
      return [];
    case 'run_end': {
      const failed = part.status !== 'done' && part.output === '';
      const errorText = part.error?.message ?? `The run ended ${part.status}.`;
      const finishReason =
        part.status === 'done' ? 'stop' : part.status === 'failed' ? 'error' : failed ? 'other' : 'length';
      return [...(failed ? [{ type: 'error' as const, errorText }] : []), { type: 'finish', finishReason }];
    }
  }
}

/**
 * POST /v1/agents/:name/ui-stream: the AI SDK UI message stream, for `useChat` with
 * `DefaultChatTransport({ api })`. A new user message starts a run (the earlier messages are its
 * history; the chat `id` is the session the conversation is stored in, and the history when the
 * client sends only its last message). The run's events go out as text, reasoning and tool parts
 * with step boundaries. A call that needs approval ends the stream with a `tool-approval-request`
 * (the run waits); the request `addToolApprovalResponse` triggers answers it and continues the same
 * run in the same assistant message. `ask_user` stays an open tool call, answered with `addToolOutput`.
 */
export function uiStreamRoute(app: Hono, ctx: UiStreamRouteContext): void {
  app.post('/v1/agents/:name/ui-stream', async (c) => {
    const body = await readAgentRequest(c, ctx.runs, UiStreamBody);
    if (!body.ok) return body.response;
    const { messages } = body.value;
    const last = messages[messages.length - 1];
    if (last.role === 'assistant') return continueRun(ctx, c, body.agent, last);
    return startRun(ctx, c, body.agent, body.value);
  });
}

/** An assistant message with answered approvals or `ask_user` outputs continues its run, in the same message. */
async function continueRun(ctx: UiStreamRouteContext, c: Context, agent: string, last: UiMessage): Promise<Response> {
  const runId = runOf(last);
  const answers = answersIn(last);
  if (!runId || answers.length === 0) {
    return apiError(
      c,
      'invalid_request',
      'Invalid request body: the last message is an assistant message with no answered approval or ask_user output; send a user message, or answer with addToolApprovalResponse / addToolOutput.',
    );
  }
  const found = await agentRunOf(c, ctx.runs, { agent, runId, to: 'continue' });
  if (!found.ok) return found.response;
  const continued = await continueAnswered(c, ctx.runs, { runId, answers, asked: 'tool calls' });
  if (!continued.ok) return continued.response;
  const { reader, after } = continued.from;
  return streamUi(c, ctx.runs, { runId, messageId: last.id, reader, after });
}

/** A new user message starts a run; a run still waiting on the last answer's question is left behind, stopped. */
async function startRun(ctx: UiStreamRouteContext, c: Context, agent: string, body: UiStreamBody): Promise<Response> {
  const { runs, sessions } = ctx;
  const { id: chatId, messages } = body;
  const last = messages[messages.length - 1];
  const previous = messages.findLast((m) => m.role === 'assistant');
  const abandoned = previous && runOf(previous);
  if (abandoned && (await runs.get(abandoned))?.status === 'waiting') await runs.cancel(abandoned);

  if (last.role !== 'user') {
    return apiError(c, 'invalid_request', 'Invalid request body: the last message must be a user message.');
  }
  const input = userText(last, messages.length - 1);
  if ('field' in input) {
    return apiError(
      c,
      'invalid_request',
      `Invalid request body: ${input.field} is a "${input.type}" part; an agent run takes text parts only.`,
    );
  }
  const earlier = messages.slice(0, -1);
  const history = earlier.length === 0 && sessions ? await sessions.load(chatId) : uiHistory(earlier);
  const started = await runs.start({ agent, input: input.text, history, source: 'chat', thread: chatId });
  if (!started.ok) return startRefusal(c, started, agent);
  const runId = started.run.id;
  if (sessions)
    keepConversation({ runs, sessions, sessionId: chatId, history, input: input.text, runId, onError: ctx.onError });
  return streamUi(c, runs, { runId, messageId: `msg-${runId}`, reader: createAnswerPartReader({ runId }), after: 0 });
}

/** Streams the run's answer parts as UI message chunks, in one assistant message. */
function streamUi(
  c: Context,
  runs: RunService,
  follow: { runId: string; messageId: string; reader: AnswerPartReader; after: number },
): Response {
  const { runId, messageId } = follow;
  for (const [name, value] of Object.entries(UI_STREAM_HEADERS)) c.header(name, value);
  return streamSSE(c, async (sse) => {
    let open = true;
    sse.onAbort(() => {
      open = false;
    });
    const write = (chunk: UiMessageChunk) => sse.writeSSE({ data: JSON.stringify(chunk) });
    const metadata = { thinkflow: { runId } };
    await write({ type: 'start', messageId, messageMetadata: metadata });
    let ended = false;
    for await (const part of followAnswerParts(runs, follow, () => !open)) {
      for (const chunk of chunksOf(part, runId)) await write(chunk);
      if (part.type === 'run_end') ended = true;
      // The run waits for a person: this response ends, the answer comes with the next request.
      if (part.type === 'question') {
        await write({ type: 'finish', finishReason: 'tool-calls', messageMetadata: metadata });
        ended = true;
        break;
      }
    }
    if (!open) return;
    if (!ended) {
      await write({ type: 'error', errorText: `Run ${runId} ended without a run_end event.` });
      await write({ type: 'finish', finishReason: 'error' });
    }
    await sse.writeSSE({ data: '[DONE]' });
  });
}
