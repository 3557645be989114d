import type { Context } from 'hono';
import type { z } from 'zod';
import {
  A2A_ERRORS,
  A2A_FINAL_STATES,
  A2aSendParams,
  A2aTaskQuery,
  A2aV1SendParams,
  fromV1SendParams,
  JsonRpcRequest,
  jsonRpcIdOf,
  toV1Task,
} from '../../../tools/index.js';
import { bodyText, MAX_BODY_DEPTH, nestingDepth } from '../../http/index.js';
import type { RunRecord } from '../../records/index.js';
import { beginTask } from './a2a-begin.js';
import { type A2aContext, type RpcError, type RpcId, rpcError } from './a2a-context.js';
import { settled } from './a2a-settled.js';
import { streamTask } from './a2a-stream.js';
import { taskState, toTask } from './a2a-task.js';

/** The v1.0 JSON-RPC methods, by the v0.3 method each one is. */
const V1_METHODS: Record<string, string> = {
  SendMessage: 'message/send',
  SendStreamingMessage: 'message/stream',
  GetTask: 'tasks/get',
  CancelTask: 'tasks/cancel',
};

type RpcBody = { result: unknown } | { error: RpcError };

/** One JSON-RPC call to one agent: what every method's step works with. */
interface RpcCall {
  ctx: A2aContext;
  c: Context;
  agent: string;
  id: RpcId;
  /** A v1.0 method name: the call is answered in v1.0 shapes. */
  v1: boolean;
  params: unknown;
  reply(body: RpcBody): Response;
}

/**
 * Answers one JSON-RPC request to `/a2a/:name`: v1.0 method names (the SDK's default) and v0.3 ones go
 * to one handler each, answering in its version's shapes.
 */
export async function answerRpc(ctx: A2aContext, c: Context, agent: string): Promise<Response> {
  const reply = (id: RpcId, body: RpcBody) => c.json({ jsonrpc: '2.0', id, ...body });
  const read = await readRequest(c, reply);
  if (!read.ok) return read.response;
  const { id = null, method, params } = read.request;
  const v1 = Object.hasOwn(V1_METHODS, method);
  const call: RpcCall = { ctx, c, agent, id, v1, params, reply: (body) => reply(id, body) };
  switch (V1_METHODS[method] ?? method) {
    case 'message/send':
      return sendMessage(call);
    case 'message/stream':
      return streamMessage(call);
    case 'tasks/get':
      return getTask(call);
    case 'tasks/cancel':
      return cancelTask(call);
    default:
      return call.reply({
        error: rpcError(
          A2A_ERRORS.methodNotFound,
          `Method "${method}" is not served; use SendMessage, SendStreamingMessage, GetTask, CancelTask (v1.0) or message/send, message/stream, tasks/get, tasks/cancel (v0.3).`,
        ),
      });
  }
}

async function readRequest(
  c: Context,
  reply: (id: RpcId, body: RpcBody) => Response,
): Promise<{ ok: true; request: JsonRpcRequest } | { ok: false; response: Response }> {
  const text = await bodyText(c.req);
  if (text === undefined) {
    return { ok: false, response: reply(null, { error: rpcError(A2A_ERRORS.parse, 'The body is not valid UTF-8.') }) };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const why = `The body is not JSON: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, response: reply(null, { error: rpcError(A2A_ERRORS.parse, why) }) };
  }
  if (nestingDepth(json, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
    const why = `The request is nested deeper than ${MAX_BODY_DEPTH} levels.`;
    return { ok: false, response: reply(null, { error: rpcError(A2A_ERRORS.invalidRequest, why) }) };
  }
  const request = JsonRpcRequest.safeParse(json);
  if (request.success) return { ok: true, request: request.data };
  // JSON-RPC answers an invalid request with its id whenever one can be read from it.
  const why = 'Not a JSON-RPC 2.0 request: send { jsonrpc: "2.0", id, method, params }.';
  return { ok: false, response: reply(jsonRpcIdOf(json), { error: rpcError(A2A_ERRORS.invalidRequest, why) }) };
}

const invalid = (call: RpcCall, issues: string) =>
  call.reply({ error: rpcError(A2A_ERRORS.invalidParams, `Invalid params: ${issues}`) });

const task = (call: RpcCall, found: RunRecord, historyLength?: number) => {
  const read = toTask(call.ctx.book, found, historyLength);
  return call.v1 ? toV1Task(read) : read;
};

function sendParams(call: RpcCall): { ok: true; value: A2aSendParams } | { ok: false; response: Response } {
  const parsed = call.v1 ? A2aV1SendParams.safeParse(call.params) : A2aSendParams.safeParse(call.params);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${['params', ...i.path].join('.')}: ${i.message}`).join('; ');
    return { ok: false, response: invalid(call, issues) };
  }
  const value = call.v1
    ? fromV1SendParams(parsed.data as z.infer<typeof A2aV1SendParams>)
    : (parsed.data as A2aSendParams);
  return { ok: true, value };
}

/** `message/send`: begins the task and, unless `blocking` is false, answers once it settled. */
async function sendMessage(call: RpcCall): Promise<Response> {
  const parsed = sendParams(call);
  if (!parsed.ok) return parsed.response;
  const begun = await beginTask(call.ctx, call.agent, parsed.value);
  if (!begun.ok) return call.reply({ error: begun.error });
  const { runs } = call.ctx;
  const run =
    parsed.value.configuration?.blocking === false
      ? await runs.get(begun.runId)
      : await settled(runs, begun.runId, call.c.req.raw.signal);
  if (!run) return call.reply({ error: rpcError(A2A_ERRORS.taskNotFound, `Task "${begun.runId}" not found.`) });
  const historyLength = parsed.value.configuration?.historyLength;
  return call.reply({ result: call.v1 ? { task: task(call, run, historyLength) } : task(call, run, historyLength) });
}

async function streamMessage(call: RpcCall): Promise<Response> {
  const parsed = sendParams(call);
  if (!parsed.ok) return parsed.response;
  const begun = await beginTask(call.ctx, call.agent, parsed.value);
  if (!begun.ok) return call.reply({ error: begun.error });
  return streamTask(call.ctx, call.c, call, begun);
}

/** The task a `tasks/*` call names, when it is this agent's. */
async function findTask(call: RpcCall): Promise<{ found: RunRecord; historyLength?: number } | Response> {
  const parsed = A2aTaskQuery.safeParse(call.params);
  if (!parsed.success) return invalid(call, 'params.id must name a task');
  const found = await call.ctx.runs.get(parsed.data.id);
  if (!found || found.agent !== call.agent)
    return call.reply({ error: rpcError(A2A_ERRORS.taskNotFound, `Task "${parsed.data.id}" not found.`) });
  return { found, historyLength: parsed.data.historyLength };
}

async function getTask(call: RpcCall): Promise<Response> {
  const query = await findTask(call);
  if (query instanceof Response) return query;
  return call.reply({ result: task(call, query.found, query.historyLength) });
}

async function cancelTask(call: RpcCall): Promise<Response> {
  const query = await findTask(call);
  if (query instanceof Response) return query;
  const { found } = query;
  const state = taskState(found);
  if (A2A_FINAL_STATES.includes(state)) {
    const why = `Task "${found.id}" is ${state}; it cannot be canceled.`;
    return call.reply({ error: rpcError(A2A_ERRORS.taskNotCancelable, why) });
  }
  const canceled = await call.ctx.runs.cancel(found.id);
  return call.reply({ result: task(call, canceled ?? found) });
}
