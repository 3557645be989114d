import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { z } from 'zod';
import { type AnswerPartReader, createAnswerPartReader, type Message } from '../../../core/index.js';
import type { SessionStore } from '../../../memory/index.js';
import {
  A2A_ERRORS,
  A2A_FINAL_STATES,
  type A2aMessage,
  type A2aResult,
  A2aSendParams,
  type A2aTask,
  A2aTaskQuery,
  type A2aTaskState,
  A2aV1SendParams,
  fromV1SendParams,
  JsonRpcRequest,
  jsonRpcIdOf,
  toV1StreamResponse,
  toV1Task,
} from '../../../tools/index.js';
import { apiError } from '../../http/index.js';
import { followEvents, isFinished, type RunRecord, type RunService } from '../../records/index.js';
import { unknownAgent } from '../../routes/index.js';
import { answerCalls, continueAfterQuestion, keepConversation } from '../../runs/index.js';
import { agentMessage, answerArtifact, answerFrom, questionText, taskState } from './a2a-task.js';

/** What the A2A routes work with. */
export interface A2aRouteContext {
  runs: RunService;
  /** Where each A2A context's conversation is kept, under the context id. */
  sessions?: SessionStore;
  /** True when the API wants a bearer token: the card says so. */
  authRequired: boolean;
  onError: (error: unknown) => void;
}

type RpcId = string | number | null;
/** A task begun or continued: where its stream picks up. */
type Begun = { runId: string; after: number; reader: AnswerPartReader; continued: boolean };
type RpcError = { code: number; message: string };
const rpcError = (code: number, message: string): RpcError => ({ code, message });

/** The v1.0 JSON-RPC methods, by the v0.3 method each one is. */
const V1_METHODS: Record<string, string> = {
  SendMessage: 'message/send',
  SendStreamingMessage: 'message/stream',
  GetTask: 'tasks/get',
  CancelTask: 'tasks/cancel',
};

/** A2A contexts of this process's tasks (a task with no context named by the client is its own). */
const CONTEXTS_KEPT = 10_000;

/**
 * The A2A protocol, JSON-RPC binding, v1.0 (`SendMessage`, `SendStreamingMessage`, `GetTask`,
 * `CancelTask`: what `@a2a-js/sdk` 1.x speaks by default) and v0.3 (the method names below) on one
 * endpoint: each agent is an A2A agent at `/a2a/:name`, its card at
 * `/a2a/:name/.well-known/agent-card.json` (and `/.well-known/agent-card.json` when the server has
 * one agent). `message/send` starts a task (a thinkflow run; the task id is the run id) and, unless
 * `configuration.blocking` is false, answers once it completes or needs input; `message/stream`
 * streams status and artifact updates (the answer text as it comes, then the final answer);
 * `tasks/get` and `tasks/cancel` read and stop it. A call that needs approval, or an `ask_user`
 * question, puts the task in `input-required` with the question as its status message; a message
 * on the same `taskId` answers it (for approvals "yes"/"no" or a data part `{ approved }`).
 */
export function a2aRoutes(app: Hono, ctx: A2aRouteContext): void {
  const { runs, sessions } = ctx;
  const contexts = new Map<string, string>();
  const inputs = new Map<string, A2aMessage>();
  const remember = (taskId: string, contextId: string, message: A2aMessage) => {
    contexts.set(taskId, contextId);
    inputs.set(taskId, message);
    // A bounded memory: the oldest tasks fall back to their own id as context.
    for (const map of [contexts, inputs]) if (map.size > CONTEXTS_KEPT) map.delete(map.keys().next().value as string);
  };
  const contextOf = (taskId: string) => contexts.get(taskId) ?? taskId;

  function card(c: Context, name: string) {
    const url = new URL(`/a2a/${encodeURIComponent(name)}`, c.req.url).toString();
    return {
      protocolVersion: '0.3.0',
      name,
      description: `The thinkflow agent "${name}".`,
      url,
      preferredTransport: 'JSONRPC',
      // One endpoint, both versions: v1.0 clients read supportedInterfaces, v0.3 ones url and protocolVersion.
      supportedInterfaces: [
        { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
      version: '1.0.0',
      capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
      defaultInputModes: ['text/plain', 'application/json'],
      defaultOutputModes: ['text/plain', 'application/json'],
      skills: [{ id: name, name, description: `Ask the agent "${name}".`, tags: ['thinkflow'] }],
      ...(ctx.authRequired
        ? { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, security: [{ bearer: [] }] }
        : {}),
    };
  }

  function toTask(run: RunRecord, historyLength?: number): A2aTask {
    const contextId = contextOf(run.id);
    const state = taskState(run);
    const question = run.questions?.find((q) => !q.answer);
    const status: A2aTask['status'] = { state, timestamp: new Date(run.updatedAt).toISOString() };
    if (state === 'input-required' && question) {
      status.message = agentMessage(run.id, contextId, [{ kind: 'text', text: questionText(question) }], {
        thinkflow: { kind: question.kind, callId: question.callId, tool: question.tool, input: question.input },
      });
    } else if (state === 'failed' && run.result?.error) {
      status.message = agentMessage(run.id, contextId, [{ kind: 'text', text: run.result.error.message }]);
    }
    const input = inputs.get(run.id) ?? {
      kind: 'message',
      messageId: `${run.id}-input`,
      role: 'user',
      parts: [{ kind: 'text', text: run.input }],
    };
    const history = [{ ...input, taskId: run.id, contextId }];
    const artifacts =
      run.result && state === 'completed' ? [answerArtifact(run.result.output, run.result.object)] : undefined;
    return {
      kind: 'task',
      id: run.id,
      contextId,
      status,
      history: historyLength === undefined ? history : history.slice(history.length - historyLength),
      ...(artifacts ? { artifacts } : {}),
      metadata: { thinkflow: { agent: run.agent, status: run.status } },
    };
  }

  /** Starts a task, or answers the question of the task it continues; a JSON-RPC error when it cannot. */
  async function begin(
    agent: string,
    params: A2aSendParams,
  ): Promise<({ ok: true } & Begun) | { ok: false; error: RpcError }> {
    const { message } = params;
    if (message.taskId) {
      const run = await runs.get(message.taskId);
      if (!run || run.agent !== agent)
        return { ok: false, error: rpcError(A2A_ERRORS.taskNotFound, `Task "${message.taskId}" not found.`) };
      const question = run.questions?.find((q) => !q.answer);
      if (run.status !== 'waiting' || !question?.callId) {
        const state = taskState(run);
        const why = A2A_FINAL_STATES.includes(state) ? `is ${state}` : 'is not waiting for input';
        return {
          ok: false,
          error: rpcError(
            A2A_ERRORS.invalidParams,
            `Task "${run.id}" ${why}; send a new message without taskId to start another.`,
          ),
        };
      }
      const from = await continueAfterQuestion(runs, run.id, [question.callId]);
      const outcome = await answerCalls(runs, run.id, [
        { callId: question.callId, answer: answerFrom(message, question) },
      ]);
      if (outcome !== 'answered' || !from) {
        return {
          ok: false,
          error: rpcError(A2A_ERRORS.invalidParams, `Task "${run.id}" is no longer waiting on that question.`),
        };
      }
      return { ok: true, runId: run.id, after: from.after, reader: from.reader, continued: true };
    }
    const file = message.parts.findIndex((p) => p.kind === 'file');
    if (file >= 0)
      return {
        ok: false,
        error: rpcError(
          A2A_ERRORS.invalidParams,
          `params.message.parts[${file}] is a file part; an agent run takes text and data parts only.`,
        ),
      };
    const input = message.parts
      .map((p) => (p.kind === 'text' ? p.text : p.kind === 'data' ? JSON.stringify(p.data) : ''))
      .join('\n');
    if (input.trim() === '')
      return { ok: false, error: rpcError(A2A_ERRORS.invalidParams, 'params.message.parts must hold some text.') };
    const contextId = message.contextId;
    const history: Message[] = contextId && sessions ? await sessions.load(contextId) : [];
    const started = await runs.start({ agent, input, history, source: 'api' });
    if (!started.ok) {
      const why =
        started.reason === 'unknown_agent'
          ? `No agent named "${agent}".`
          : `Too many runs waiting for agent "${agent}"; retry later.`;
      return { ok: false, error: rpcError(A2A_ERRORS.internal, why) };
    }
    const runId = started.run.id;
    remember(runId, contextId ?? runId, message);
    if (contextId && sessions)
      keepConversation({ runs, sessions, sessionId: contextId, history, input, runId, onError: ctx.onError });
    return { ok: true, runId, after: 0, reader: createAnswerPartReader({ runId }), continued: false };
  }

  /** Resolves once the run ended or waits for input (or the signal aborts). */
  async function settled(runId: string, signal: AbortSignal): Promise<RunRecord | undefined> {
    for (;;) {
      const run = await runs.get(runId);
      if (!run || signal.aborted || isFinished(run.status)) return run;
      if (run.status === 'waiting' && run.questions?.some((q) => !q.answer)) return run;
      // Short: a change can be signalled just before its write is read back.
      await runs.changed(runId, 100);
    }
  }

  const discover = (c: Context, name: string) => unknownAgent(c, runs, name) ?? c.json(card(c, name));

  app.get('/.well-known/agent-card.json', (c) => {
    const names = runs.agentNames();
    if (names.length !== 1) {
      return apiError(
        c,
        'not_found',
        `This server has ${names.length} agents; read /a2a/<name>/.well-known/agent-card.json (${names.join(', ')}).`,
      );
    }
    return discover(c, names[0]);
  });
  app.get('/a2a/:name/.well-known/agent-card.json', (c) => discover(c, c.req.param('name')));

  app.post('/a2a/:name', async (c) => {
    const agent = c.req.param('name');
    const unknown = unknownAgent(c, runs, agent);
    if (unknown) return unknown;
    const reply = (id: RpcId, body: { result: unknown } | { error: RpcError }) =>
      c.json({ jsonrpc: '2.0', id, ...body });
    let json: unknown;
    try {
      json = JSON.parse(await c.req.text());
    } catch (error) {
      return reply(null, {
        error: rpcError(
          A2A_ERRORS.parse,
          `The body is not JSON: ${error instanceof Error ? error.message : String(error)}`,
        ),
      });
    }
    const request = JsonRpcRequest.safeParse(json);
    if (!request.success) {
      // JSON-RPC answers an invalid request with its id whenever one can be read from it.
      return reply(jsonRpcIdOf(json), {
        error: rpcError(
          A2A_ERRORS.invalidRequest,
          'Not a JSON-RPC 2.0 request: send { jsonrpc: "2.0", id, method, params }.',
        ),
      });
    }
    const { id = null, method, params } = request.data;
    const invalid = (issues: string) =>
      reply(id, { error: rpcError(A2A_ERRORS.invalidParams, `Invalid params: ${issues}`) });

    // v1.0 method names (the SDK's default) and v0.3 ones: one handler, each answering in its version's shapes.
    const v1 = Object.hasOwn(V1_METHODS, method);
    const op = V1_METHODS[method] ?? method;
    const sendParams = (): { ok: true; value: A2aSendParams } | { ok: false; response: Response } => {
      const parsed = v1 ? A2aV1SendParams.safeParse(params) : A2aSendParams.safeParse(params);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => `${['params', ...i.path].join('.')}: ${i.message}`).join('; ');
        return { ok: false, response: invalid(issues) };
      }
      const value = v1
        ? fromV1SendParams(parsed.data as z.infer<typeof A2aV1SendParams>)
        : (parsed.data as A2aSendParams);
      return { ok: true, value };
    };
    const task = (found: RunRecord, historyLength?: number) =>
      v1 ? toV1Task(toTask(found, historyLength)) : toTask(found, historyLength);

    switch (op) {
      case 'message/send': {
        const parsed = sendParams();
        if (!parsed.ok) return parsed.response;
        const begun = await begin(agent, parsed.value);
        if (!begun.ok) return reply(id, { error: begun.error });
        const run =
          parsed.value.configuration?.blocking === false
            ? await runs.get(begun.runId)
            : await settled(begun.runId, c.req.raw.signal);
        if (!run) return reply(id, { error: rpcError(A2A_ERRORS.taskNotFound, `Task "${begun.runId}" not found.`) });
        const historyLength = parsed.value.configuration?.historyLength;
        return reply(id, { result: v1 ? { task: task(run, historyLength) } : task(run, historyLength) });
      }
      case 'message/stream': {
        const parsed = sendParams();
        if (!parsed.ok) return parsed.response;
        const begun = await begin(agent, parsed.value);
        if (!begun.ok) return reply(id, { error: begun.error });
        return stream(c, id, begun, v1);
      }
      case 'tasks/get':
      case 'tasks/cancel': {
        const parsed = A2aTaskQuery.safeParse(params);
        if (!parsed.success) return invalid('params.id must name a task');
        const found = await runs.get(parsed.data.id);
        if (!found || found.agent !== agent)
          return reply(id, { error: rpcError(A2A_ERRORS.taskNotFound, `Task "${parsed.data.id}" not found.`) });
        if (op === 'tasks/get') return reply(id, { result: task(found, parsed.data.historyLength) });
        if (A2A_FINAL_STATES.includes(taskState(found))) {
          return reply(id, {
            error: rpcError(
              A2A_ERRORS.taskNotCancelable,
              `Task "${found.id}" is ${taskState(found)}; it cannot be canceled.`,
            ),
          });
        }
        const canceled = await runs.cancel(found.id);
        return reply(id, { result: task(canceled ?? found) });
      }
      default:
        return reply(id, {
          error: rpcError(
            A2A_ERRORS.methodNotFound,
            `Method "${method}" is not served; use SendMessage, SendStreamingMessage, GetTask, CancelTask (v1.0) or message/send, message/stream, tasks/get, tasks/cancel (v0.3).`,
          ),
        });
    }
  });

  function stream(c: Context, id: RpcId, begun: Begun, v1: boolean): Response {
    const { runId, reader } = begun;
    const contextId = contextOf(runId);
    return streamSSE(c, async (sse) => {
      let open = true;
      sse.onAbort(() => {
        open = false;
      });
      const send = (result: A2aResult) =>
        sse.writeSSE({
          data: JSON.stringify({ jsonrpc: '2.0', id, result: v1 ? toV1StreamResponse(result) : result }),
        });
      const status = (state: A2aTaskState, final: boolean, message?: A2aMessage) =>
        send({
          kind: 'status-update',
          taskId: runId,
          contextId,
          status: { state, timestamp: new Date().toISOString(), ...(message ? { message } : {}) },
          final,
        });
      const first = await runs.get(runId);
      if (!first) return;
      if (begun.continued) await status('working', false);
      else await send({ ...toTask(first), status: { state: 'submitted', timestamp: new Date().toISOString() } });
      let chunks = 0;
      let segment: string | undefined;
      let working = begun.continued;
      for await (const { event } of followEvents(runs, runId, begun.after, () => !open)) {
        for (const part of reader.read(event)) {
          if (!working && part.type === 'step_start') {
            working = true;
            await status('working', false);
          }
          if (part.type === 'text_delta') {
            // The answer streams as one artifact: its text as it comes, segments apart by a blank line.
            const lead = chunks > 0 && segment !== part.id ? '\n\n' : '';
            segment = part.id;
            await send({
              kind: 'artifact-update',
              taskId: runId,
              contextId,
              artifact: { artifactId: 'answer', name: 'answer', parts: [{ kind: 'text', text: lead + part.text }] },
              append: chunks > 0,
              lastChunk: false,
            });
            chunks += 1;
          }
          if (part.type === 'question') {
            const run = await settledQuestion(runId);
            const task = run ? toTask(run) : undefined;
            await status('input-required', true, task?.status.message);
            return;
          }
          if (part.type === 'run_end') {
            const run = await runs.wait(runId);
            if (!run) return;
            const task = toTask(run);
            if (task.artifacts) {
              // The final answer replaces what streamed: the same artifact a blocking message/send returns.
              await send({
                kind: 'artifact-update',
                taskId: runId,
                contextId,
                artifact: task.artifacts[0],
                append: false,
                lastChunk: true,
              });
            }
            await status(task.status.state, true, task.status.message);
            return;
          }
        }
      }
    });
  }

  /** The run once its question is stored (the event comes just before the status). */
  async function settledQuestion(runId: string): Promise<RunRecord | undefined> {
    for (let tries = 0; tries < 50; tries++) {
      const run = await runs.get(runId);
      if (!run || run.questions?.some((q) => !q.answer) || run.status !== 'running') return run;
      await runs.changed(runId, 100);
    }
    return runs.get(runId);
  }
}
