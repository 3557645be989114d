import { z } from 'zod';
import { ConfigError, errorMessage } from '../../core/index.js';
import { defineTool, type Tool, type ToolContext } from '../tool.js';
import {
  A2aAgentCard,
  A2aMessage,
  type A2aPart,
  A2aTask,
  A2aV1Interfaces,
  type A2aV1Part,
  A2aV1SendResult,
  A2aV1Task,
  a2aText,
  JsonRpcResponse,
} from './a2a-wire-schema.js';

/** How `a2aAgentTool` reaches and names the remote agent. */
export interface A2aAgentToolOptions {
  /** The tool's name (default: the card's name, made a valid tool name). */
  name?: string;
  /** What the model reads (default: the card's description and skills). */
  description?: string;
  /** Headers for every request, e.g. `{ Authorization: 'Bearer …' }`. */
  headers?: Record<string, string>;
  /** Longest a call may take, in ms. Default 10 minutes. */
  timeoutMs?: number;
  /** Questions the remote agent may ask (`input-required`) answered through `ask_user` before giving up. Default 3. */
  maxTurns?: number;
  fetch?: typeof fetch;
}

/** One remote agent, as the card says to reach it. */
interface Remote {
  endpoint: string;
  version: '0.3' | '1.0';
}

/** What a call's last answer left: done with text, or waiting on a question. */
type Outcome = { type: 'done'; text: string } | { type: 'input'; taskId: string; contextId?: string; question: string };
/** Sends a message to the remote agent (on the task it continues, if any) and reads the task's outcome. */
type Send = (text: string, signal: AbortSignal, task?: { id: string; contextId?: string }) => Promise<Outcome>;

const FAILED =
  /^(failed|rejected|canceled|TASK_STATE_FAILED|TASK_STATE_REJECTED|TASK_STATE_CANCELED|TASK_STATE_CANCELLED)$/;
const NEEDS_INPUT = /^(input-required|auth-required|TASK_STATE_INPUT_REQUIRED|TASK_STATE_AUTH_REQUIRED)$/;
const DONE = /^(completed|TASK_STATE_COMPLETED)$/;

const v1Text = (parts: readonly A2aV1Part[]) =>
  parts.map((p) => (p.text !== undefined ? p.text : p.data !== undefined ? JSON.stringify(p.data) : '')).join('');

/** A card's name as a tool name (letters of every script, digits, `_`, `-`: `翻译助手` stays itself). */
function toolNameOf(name: string): string {
  return [...name.replace(/[^\p{L}\p{M}\p{N}_-]+/gu, '_').replace(/^_+|_+$/g, '')].slice(0, 64).join('') || 'a2a_agent';
}

/** The card's URL for what the user gave: a card URL as it is, else `<url>/.well-known/agent-card.json`. */
function cardUrl(url: string): string {
  if (url.endsWith('.json')) return url;
  return `${url.replace(/\/+$/, '')}/.well-known/agent-card.json`;
}

/** Picks the endpoint and protocol version the card offers: JSON-RPC v1.0 first, else v0.3. */
function remoteOf(card: A2aAgentCard, raw: Record<string, unknown>): Remote | undefined {
  const listed = A2aV1Interfaces.safeParse(raw.supportedInterfaces);
  const jsonRpc = (listed.success ? listed.data : []).filter((i) => (i.protocolBinding ?? 'JSONRPC') === 'JSONRPC');
  const v1 = jsonRpc.find((i) => i.protocolVersion?.startsWith('1.'));
  if (v1) return { endpoint: v1.url, version: '1.0' };
  const legacy = jsonRpc.find((i) => i.protocolVersion?.startsWith('0.'));
  const endpoint = legacy?.url ?? card.url;
  return endpoint ? { endpoint, version: '0.3' } : undefined;
}

/**
 * A remote A2A agent as a tool: the model gives it a task, the tool sends it as an A2A message
 * (JSON-RPC, v1.0 `SendMessage` or v0.3 `message/send`, whichever the agent card offers) and returns
 * the agent's answer (its artifacts' text). When the remote task needs input, the question goes to
 * the person through `ask_user` (the run's `ask`) and the answer back on the same task; with nobody
 * to ask, the question is the observation. Reads the agent card once, here, so the model sees the
 * remote agent's own name and description. Plain `fetch`: no SDK needed.
 *
 * @example
 * const travel = await a2aAgentTool('https://agents.example.com/a2a/travel/');
 * const agent = new Agent({ model, tools: [travel] });
 */
export async function a2aAgentTool(
  url: string,
  options: A2aAgentToolOptions = {},
): Promise<Tool<{ task: string }, string>> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const headers = { 'content-type': 'application/json', ...options.headers };
  const where = cardUrl(url);
  let raw: unknown;
  try {
    const response = await fetchImpl(where, { headers: options.headers });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    raw = await response.json();
  } catch (error) {
    throw new ConfigError({
      message: `a2aAgentTool: could not read the agent card at ${where} (${errorMessage(error)}). Pass the agent's A2A URL (its card is at <url>/.well-known/agent-card.json) or the card's own URL.`,
      cause: error,
    });
  }
  const parsed = A2aAgentCard.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError({
      message: `a2aAgentTool: ${where} is not an A2A agent card (it needs at least a name).`,
    });
  }
  const card = parsed.data;
  const found = remoteOf(card, raw as Record<string, unknown>);
  if (!found) {
    throw new ConfigError({
      message: `a2aAgentTool: the agent card at ${where} lists no JSON-RPC endpoint (url, or supportedInterfaces with protocolBinding "JSONRPC"); other A2A transports are not supported.`,
    });
  }
  const remote = found;
  const skills = (card.skills ?? []).map((s) => `${s.name}${s.description ? `: ${s.description}` : ''}`);
  const description =
    options.description ??
    [card.description ?? `The remote agent "${card.name}".`, skills.length ? `Skills: ${skills.join('; ')}.` : '']
      .join(' ')
      .trim();
  let counter = 0;

  async function rpc(method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    counter += 1;
    const response = await fetchImpl(remote.endpoint, {
      method: 'POST',
      headers: remote.version === '1.0' ? { ...headers, 'A2A-Version': '1.0' } : headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: counter, method, params }),
      signal,
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`The A2A agent at ${remote.endpoint} answered HTTP ${response.status}: ${text.slice(0, 200)}`);
    }
    const reply = JsonRpcResponse.safeParse(body);
    if (!reply.success)
      throw new Error(
        `The A2A agent at ${remote.endpoint} answered HTTP ${response.status} with no JSON-RPC response.`,
      );
    if (reply.data.error) throw new Error(`The A2A agent refused ${method}: ${reply.data.error.message}`);
    return reply.data.result;
  }

  const sendLegacy: Send = async (text, signal, task) => {
    const message = {
      kind: 'message',
      messageId: crypto.randomUUID(),
      role: 'user',
      parts: [{ kind: 'text', text }],
      ...(task ? { taskId: task.id, contextId: task.contextId } : {}),
    };
    const result = await rpc('message/send', { message, configuration: { blocking: true } }, signal);
    const asMessage = A2aMessage.safeParse(result);
    if (asMessage.success && (result as { kind?: string }).kind === 'message')
      return { type: 'done', text: a2aText(asMessage.data.parts) };
    let current = A2aTask.parse(result);
    // A server that answers before the task ends: read it until it does.
    while (
      !FAILED.test(current.status.state) &&
      !NEEDS_INPUT.test(current.status.state) &&
      !DONE.test(current.status.state)
    ) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      current = A2aTask.parse(await rpc('tasks/get', { id: current.id }, signal));
    }
    const status = current.status.message ? a2aText(current.status.message.parts as A2aPart[]) : '';
    if (FAILED.test(current.status.state))
      throw new Error(`The remote task ended ${current.status.state}${status ? `: ${status}` : '.'}`);
    if (NEEDS_INPUT.test(current.status.state)) {
      return {
        type: 'input',
        taskId: current.id,
        contextId: current.contextId,
        question: status || 'The agent needs more input.',
      };
    }
    return { type: 'done', text: (current.artifacts ?? []).map((a) => a2aText(a.parts)).join('\n') || status };
  };

  const sendV1: Send = async (text, signal, task) => {
    const message = {
      messageId: crypto.randomUUID(),
      role: 'ROLE_USER',
      parts: [{ text }],
      ...(task ? { taskId: task.id, ...(task.contextId ? { contextId: task.contextId } : {}) } : {}),
    };
    const result = A2aV1SendResult.parse(await rpc('SendMessage', { message }, signal));
    if (!result.task) return { type: 'done', text: v1Text(result.message?.parts ?? []) };
    let current = result.task;
    const stateOf = (t: A2aV1Task) => t.status?.state ?? 'unknown';
    while (!FAILED.test(stateOf(current)) && !NEEDS_INPUT.test(stateOf(current)) && !DONE.test(stateOf(current))) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      current = A2aV1Task.parse(await rpc('GetTask', { id: current.id }, signal));
    }
    const status = v1Text(current.status?.message?.parts ?? []);
    if (FAILED.test(stateOf(current)))
      throw new Error(`The remote task ended ${stateOf(current)}${status ? `: ${status}` : '.'}`);
    if (NEEDS_INPUT.test(stateOf(current))) {
      return {
        type: 'input',
        taskId: current.id,
        contextId: current.contextId,
        question: status || 'The agent needs more input.',
      };
    }
    return { type: 'done', text: current.artifacts.map((a) => v1Text(a.parts)).join('\n') || status };
  };

  const send = remote.version === '1.0' ? sendV1 : sendLegacy;
  const maxTurns = options.maxTurns ?? 3;

  return defineTool({
    name: options.name ?? toolNameOf(card.name),
    description,
    input: z.object({ task: z.string().describe('What to ask the remote agent, with all the context it needs') }),
    timeoutMs: options.timeoutMs ?? 600_000,
    async run({ task }, ctx: ToolContext) {
      let outcome = await send(task, ctx.signal);
      for (let turn = 0; outcome.type === 'input' && turn < maxTurns && ctx.ask; turn++) {
        const answer = await ctx.ask(`${card.name} asks: ${outcome.question}`);
        outcome = await send(answer, ctx.signal, { id: outcome.taskId, contextId: outcome.contextId });
      }
      if (outcome.type === 'input') {
        return `The remote agent ${card.name} needs more input before it can go on (task ${outcome.taskId}): ${outcome.question}`;
      }
      return outcome.text;
    },
  });
}
