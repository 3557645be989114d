import type { Context, Hono } from 'hono';
import type { Message } from '../../../core/index.js';
import type { SessionStore } from '../../../memory/index.js';
import { createAnswerPartReader } from '../../../protocols/index.js';
import { apiError } from '../../http/index.js';
import type { RunService } from '../../records/index.js';
import { agentRunOf, continueAnswered, readAgentRequest, startRefusal } from '../../routes/index.js';
import { type CallAnswer, keepConversation } from '../../runs/index.js';
import { agUiHistory, agUiText } from './ag-ui-messages.js';
import { streamAgUi } from './ag-ui-stream.js';
import { AgUiAnswerPayload, AgUiApprovalPayload, RunAgentInput } from './ag-ui-wire-schema.js';

/** What the AG-UI route works with. */
export interface AgUiRouteContext {
  runs: RunService;
  /** Where each thread's conversation is kept, under the thread id (when the server has a session store). */
  sessions?: SessionStore;
  onError: (error: unknown) => void;
}

const isEmptyState = (state: unknown) =>
  state === undefined || state === null || (typeof state === 'object' && Object.keys(state).length === 0);

const invalid = (c: Context, why: string) => apiError(c, 'invalid_request', `Invalid request body: ${why}`);

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
  app.post('/v1/agents/:name/ag-ui', async (c) => {
    const body = await readAgentRequest(c, ctx.runs, RunAgentInput);
    if (!body.ok) return body.response;
    const { agent, value: input } = body;
    if (input.tools.length > 0) {
      return invalid(
        c,
        `tools (frontend tools: ${input.tools.map((t) => t.name).join(', ')}) cannot be run by a thinkflow agent; its tools are its own. Send tools: [].`,
      );
    }
    if (!isEmptyState(input.state))
      return invalid(c, 'state (shared agent state) is not used by a thinkflow agent; send {}.');
    return input.resume?.length ? resumeRun(ctx, c, agent, input) : startRun(ctx, c, agent, input);
  });
}

/** The last user message starts a run, with the thread's earlier messages (or its stored session) as history. */
async function startRun(ctx: AgUiRouteContext, c: Context, agent: string, input: RunAgentInput): Promise<Response> {
  const { runs, sessions } = ctx;
  const last = input.messages.at(-1);
  if (last?.role !== 'user')
    return invalid(c, 'messages must end with a user message (or send resume to answer an interrupt).');
  const media = Array.isArray(last.content) ? last.content.findIndex((p) => p.type !== 'text') : -1;
  if (media >= 0) {
    return invalid(
      c,
      `messages[${input.messages.length - 1}].content[${media}] is not text; an agent run takes text only.`,
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
  const text = agUiText(last.content);
  const started = await runs.start({ agent, input: text, history, source: 'chat', thread: input.threadId });
  if (!started.ok) return startRefusal(c, started, agent);
  const runId = started.run.id;
  if (sessions)
    keepConversation({ runs, sessions, sessionId: input.threadId, history, input: text, runId, onError: ctx.onError });
  return streamAgUi(c, runs, { input, runId, reader: createAnswerPartReader({ runId }), after: 0 });
}

/** `resume` answers the interrupts of one thinkflow run, which goes on in this response. */
async function resumeRun(ctx: AgUiRouteContext, c: Context, agent: string, input: RunAgentInput): Promise<Response> {
  const resume = input.resume ?? [];
  const runIds = new Set(resume.map((r) => r.interruptId.slice(0, Math.max(0, r.interruptId.indexOf(':')))));
  const [runId] = [...runIds];
  if (runIds.size !== 1 || !runId)
    return invalid(c, 'resume must answer the interrupts of one thinkflow run (ids "<run>:<call>").');
  const found = await agentRunOf(c, ctx.runs, { agent, runId, to: 'resume' });
  if (!found.ok) return found.response;
  const answers: CallAnswer[] = [];
  for (const [i, entry] of resume.entries()) {
    const callId = entry.interruptId.slice(runId.length + 1);
    const kind = found.run.questions?.find((q) => q.callId === callId)?.kind;
    if (!kind) return apiError(c, 'conflict', `Run "${runId}" is not waiting on interrupt "${entry.interruptId}".`);
    if (entry.status === 'cancelled') {
      answers.push({ callId, answer: { approved: false, text: kind === 'question' ? '' : undefined } });
      continue;
    }
    const parsed = (kind === 'approval' ? AgUiApprovalPayload : AgUiAnswerPayload).safeParse(entry.payload);
    if (!parsed.success) {
      const shape = kind === 'approval' ? '{ "approved": true|false, "reason"?: "..." }' : '{ "answer": "..." }';
      return invalid(c, `resume[${i}].payload must be ${shape}.`);
    }
    const value = parsed.data;
    const answer =
      'answer' in value ? { approved: true, text: value.answer } : { approved: value.approved, text: value.reason };
    answers.push({ callId, answer });
  }
  const continued = await continueAnswered(c, ctx.runs, { runId, answers, asked: 'interrupts' });
  if (!continued.ok) return continued.response;
  return streamAgUi(c, ctx.runs, { input, runId, reader: continued.from.reader, after: continued.from.after });
}
