import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { type AnswerPart, type AnswerPartReader, createAnswerPartReader, type Message } from '../../../core/index.js';
import type { SessionStore } from '../../../memory/index.js';
import { apiError } from '../../http/index.js';
import { followEvents, type RunService } from '../../records/index.js';
import { readAgentRequest, startRefusal } from '../../routes/index.js';
import { answerCalls, type CallAnswer, continueAfterQuestion, keepConversation } from '../../runs/index.js';
import {
  AgUiAnswerPayload,
  AgUiApprovalPayload,
  type AgUiEvent,
  type AgUiInterrupt,
  type AgUiMessage,
  RunAgentInput,
} from './ag-ui-wire-schema.js';

/** What the AG-UI route works with. */
export interface AgUiRouteContext {
  runs: RunService;
  /** Where each thread's conversation is kept, under the thread id (when the server has a session store). */
  sessions?: SessionStore;
  onError: (error: unknown) => void;
}

function text(content: AgUiMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
}

/** The thread's earlier messages as the run's history (tool calls and results as tool turns). */
function agUiHistory(messages: AgUiMessage[]): Message[] {
  const history: Message[] = [];
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'developer') history.push({ role: 'system', content: text(m.content) });
    else if (m.role === 'user') history.push({ role: 'user', content: text(m.content) });
    else if (m.role === 'assistant') {
      const toolCalls = m.toolCalls?.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
      history.push({ role: 'assistant', content: text(m.content), ...(toolCalls?.length ? { toolCalls } : {}) });
    } else if (m.role === 'tool' && m.toolCallId) {
      history.push({ role: 'tool', toolCallId: m.toolCallId, content: text(m.content) });
    }
  }
  return history;
}

const isEmptyState = (state: unknown) =>
  state === undefined || state === null || (typeof state === 'object' && Object.keys(state).length === 0);

/** The interrupt a question becomes: its id names the run and the call, so a resume finds both. */
function interruptOf(part: Extract<AnswerPart, { type: 'question' }>, runId: string): AgUiInterrupt {
  const id = `${runId}:${part.callId}`;
  if (part.kind === 'approval') {
    return {
      id,
      reason: 'tool_approval',
      message: part.question ?? `Allow the call to ${part.tool} with ${JSON.stringify(part.input)}?`,
      toolCallId: part.callId,
      responseSchema: {
        type: 'object',
        properties: { approved: { type: 'boolean' }, reason: { type: 'string' } },
        required: ['approved'],
      },
    };
  }
  return {
    id,
    reason: 'user_input',
    message: part.question,
    toolCallId: part.callId,
    responseSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
  };
}

/**
 * POST /v1/agents/:name/ag-ui: the AG-UI protocol (`RunAgentInput` in, events out as SSE), for
 * `@ag-ui/client`'s `HttpAgent`, CopilotKit and other AG-UI frontends. The last user message is the
 * run's input, the messages before it its history; the thread id is the session the conversation is
 * stored in. Steps, text, reasoning and tool calls stream as they happen. A call that needs approval,
 * or an `ask_user` question, ends the run with `RUN_FINISHED` and an `interrupt` outcome (AG-UI 1.0
 * interrupts, reasons `tool_approval` and `user_input`); the next `RunAgentInput` answers it in
 * `resume` (payload `{ approved, reason? }` or `{ answer }`) and continues the same thinkflow run.
 */
export function agUiRoute(app: Hono, ctx: AgUiRouteContext): void {
  const { runs, sessions } = ctx;
  app.post('/v1/agents/:name/ag-ui', async (c) => {
    const body = await readAgentRequest(c, runs, RunAgentInput);
    if (!body.ok) return body.response;
    const { agent } = body;
    const input = body.value;
    if (input.tools.length > 0) {
      return apiError(
        c,
        'invalid_request',
        `Invalid request body: tools (frontend tools: ${input.tools.map((t) => t.name).join(', ')}) cannot be run by a thinkflow agent; its tools are its own. Send tools: [].`,
      );
    }
    if (!isEmptyState(input.state)) {
      return apiError(
        c,
        'invalid_request',
        'Invalid request body: state (shared agent state) is not used by a thinkflow agent; send {}.',
      );
    }

    if (input.resume?.length) {
      const runIds = new Set(input.resume.map((r) => r.interruptId.slice(0, Math.max(0, r.interruptId.indexOf(':')))));
      const [runId] = [...runIds];
      if (runIds.size !== 1 || !runId) {
        return apiError(
          c,
          'invalid_request',
          'Invalid request body: resume must answer the interrupts of one thinkflow run (ids "<run>:<call>").',
        );
      }
      const run = await runs.get(runId);
      if (!run || run.agent !== agent)
        return apiError(c, 'not_found', `No run "${runId}" of agent "${agent}" to resume.`);
      const answers: CallAnswer[] = [];
      for (const [i, entry] of input.resume.entries()) {
        const callId = entry.interruptId.slice(runId.length + 1);
        const kind = run.questions?.find((q) => q.callId === callId)?.kind;
        if (!kind) return apiError(c, 'conflict', `Run "${runId}" is not waiting on interrupt "${entry.interruptId}".`);
        if (entry.status === 'cancelled') {
          answers.push({ callId, answer: { approved: false, text: kind === 'question' ? '' : undefined } });
          continue;
        }
        const parsed = (kind === 'approval' ? AgUiApprovalPayload : AgUiAnswerPayload).safeParse(entry.payload);
        if (!parsed.success) {
          const shape = kind === 'approval' ? '{ "approved": true|false, "reason"?: "..." }' : '{ "answer": "..." }';
          return apiError(c, 'invalid_request', `Invalid request body: resume[${i}].payload must be ${shape}.`);
        }
        const value = parsed.data;
        answers.push({
          callId,
          answer:
            'answer' in value
              ? { approved: true, text: value.answer }
              : { approved: value.approved, text: value.reason },
        });
      }
      const from = await continueAfterQuestion(
        runs,
        runId,
        answers.map((a) => a.callId),
      );
      if (!from) return apiError(c, 'conflict', `Run "${runId}" never asked about these tool calls.`);
      const outcome = await answerCalls(runs, runId, answers);
      if (outcome !== 'answered')
        return apiError(c, 'conflict', `Run "${runId}" is not waiting on these interrupts (answered already?).`);
      return stream(c, { input, runId, reader: from.reader, after: from.after });
    }

    const last = input.messages.at(-1);
    if (last?.role !== 'user') {
      return apiError(
        c,
        'invalid_request',
        'Invalid request body: messages must end with a user message (or send resume to answer an interrupt).',
      );
    }
    const media = Array.isArray(last.content) ? last.content.findIndex((p) => p.type !== 'text') : -1;
    if (media >= 0) {
      return apiError(
        c,
        'invalid_request',
        `Invalid request body: messages[${input.messages.length - 1}].content[${media}] is not text; an agent run takes text only.`,
      );
    }
    const earlier = input.messages.slice(0, -1);
    const context: Message[] = input.context.map((item) => ({
      role: 'system',
      content: `${item.description}: ${item.value}`,
    }));
    const history = [
      ...context,
      ...(earlier.length === 0 && sessions ? await sessions.load(input.threadId) : agUiHistory(earlier)),
    ];
    const started = await runs.start({ agent, input: text(last.content), history, source: 'chat' });
    if (!started.ok) return startRefusal(c, started, agent);
    const runId = started.run.id;
    if (sessions) {
      keepConversation({
        runs,
        sessions,
        sessionId: input.threadId,
        history,
        input: text(last.content),
        runId,
        onError: ctx.onError,
      });
    }
    return stream(c, { input, runId, reader: createAnswerPartReader({ runId }), after: 0 });
  });

  function stream(
    c: Context,
    { input, runId, reader, after }: { input: RunAgentInput; runId: string; reader: AnswerPartReader; after: number },
  ): Response {
    const { threadId } = input;
    return streamSSE(c, async (sse) => {
      let open = true;
      sse.onAbort(() => {
        open = false;
      });
      const write = (event: AgUiEvent) => sse.writeSSE({ data: JSON.stringify(event) });
      await write({ type: 'RUN_STARTED', threadId, runId: input.runId });
      // Steps opened in this response: a run resumed mid-step finishes only what it started.
      const steps = new Set<string>();
      let lastText: string | undefined;
      const closeSteps = async () => {
        for (const stepName of steps) await write({ type: 'STEP_FINISHED', stepName });
        steps.clear();
      };
      const interrupts: AgUiInterrupt[] = [];
      let ended = false;
      outer: for await (const { event } of followEvents(runs, runId, after, () => !open)) {
        for (const part of reader.read(event)) {
          switch (part.type) {
            case 'step_start': {
              const stepName = `step ${part.step}`;
              steps.add(stepName);
              lastText = undefined;
              await write({ type: 'STEP_STARTED', stepName });
              break;
            }
            case 'step_end': {
              const stepName = `step ${part.step}`;
              if (steps.delete(stepName)) await write({ type: 'STEP_FINISHED', stepName });
              break;
            }
            case 'text_start':
              lastText = part.id;
              await write({ type: 'TEXT_MESSAGE_START', messageId: part.id, role: 'assistant' });
              break;
            case 'text_delta':
              await write({ type: 'TEXT_MESSAGE_CONTENT', messageId: part.id, delta: part.text });
              break;
            case 'text_end':
              await write({ type: 'TEXT_MESSAGE_END', messageId: part.id });
              break;
            case 'reasoning_start':
              await write({ type: 'REASONING_START', messageId: part.id });
              await write({ type: 'REASONING_MESSAGE_START', messageId: part.id, role: 'reasoning' });
              break;
            case 'reasoning_delta':
              await write({ type: 'REASONING_MESSAGE_CONTENT', messageId: part.id, delta: part.text });
              break;
            case 'reasoning_end':
              await write({ type: 'REASONING_MESSAGE_END', messageId: part.id });
              await write({ type: 'REASONING_END', messageId: part.id });
              break;
            case 'tool_call':
              await write({
                type: 'TOOL_CALL_START',
                toolCallId: part.callId,
                toolCallName: part.tool,
                ...(lastText ? { parentMessageId: lastText } : {}),
              });
              await write({ type: 'TOOL_CALL_ARGS', toolCallId: part.callId, delta: part.arguments });
              await write({ type: 'TOOL_CALL_END', toolCallId: part.callId });
              break;
            case 'tool_result':
              await write({
                type: 'TOOL_CALL_RESULT',
                messageId: `${runId}-${part.callId}-result`,
                toolCallId: part.callId,
                content: part.ok ? part.output : (part.error ?? part.output),
                role: 'tool',
              });
              break;
            case 'question':
              interrupts.push(interruptOf(part, runId));
              // The run waits for a person: this AG-UI run ends, the answer starts the next one.
              await closeSteps();
              await write({
                type: 'RUN_FINISHED',
                threadId,
                runId: input.runId,
                outcome: { type: 'interrupt', interrupts },
              });
              ended = true;
              break outer;
            case 'answered':
              break;
            case 'run_end': {
              await closeSteps();
              ended = true;
              if (part.status === 'aborted' && part.output === '') {
                await write({ type: 'RUN_FINISHED', threadId, runId: input.runId, outcome: { type: 'cancelled' } });
              } else if (part.status !== 'done' && part.output === '') {
                await write({
                  type: 'RUN_ERROR',
                  message: part.error?.message ?? `The run ended ${part.status}.`,
                  code: part.error?.code ?? part.status,
                });
              } else {
                const result = part.object ?? part.output;
                await write({
                  type: 'RUN_FINISHED',
                  threadId,
                  runId: input.runId,
                  result,
                  outcome: { type: 'success' },
                });
              }
              break;
            }
          }
        }
      }
      if (open && !ended) await write({ type: 'RUN_ERROR', message: `Run ${runId} ended without a run_end event.` });
    });
  }
}
