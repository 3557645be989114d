import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitResult as McpElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ContentPart, Message } from '../../core/index.js';
import { errorMessage } from '../../core/index.js';
import type { Model } from '../../llm/index.js';
import type { ToolContext } from '../tool.js';
import type { ElicitRequest, ElicitResult, SampleRequest } from '../tool-peer.js';
import type { McpClientSdk } from './mcp-client-sdk.js';

/** How the client answers a server's `sampling/createMessage`. */
export interface McpSamplingOptions {
  /** The model that answers. Default: the model of the run whose tool call is in flight (the agent's own). */
  model?: Model;
  /**
   * Decides whether a request may go to the model (a person or a policy). Default: the run's
   * approval hook (`approve` in the run options), asked about a tool named `<server> sampling`.
   */
  approve?(request: SampleRequest, server: string): boolean | Promise<boolean>;
  /** Upper bound on the tokens one reply may use, whatever the server asks (default 4096). */
  maxTokens?: number;
}

/** A folder or file the server may work in (`roots/list`): a path or a `file://` URI. */
export type McpRoot = string | { uri: string; name?: string };

/** What the client declares and how it answers the server's own requests. */
export interface McpClientAnswers {
  /** `false` declares no sampling; default: answered by the run's model behind its approval hook. */
  sampling?: McpSamplingOptions | false;
  /**
   * Answers elicitation when the run in flight has no interactive channel (`ask`), or when no run is.
   * `false` declares no elicitation. Default: the run's `ask` channel, else decline.
   */
  elicit?: ((request: ElicitRequest, server: string) => ElicitResult | Promise<ElicitResult>) | false;
  /** Roots offered to the server. `false` declares none. Default: the working directory. */
  roots?: McpRoot[] | false;
}

/** The tool calls of this connection in flight, newest last: server requests are answered in their context. */
export type ActiveCalls = ToolContext[];

/** The capabilities the client declares for these options. */
export function clientCapabilities(answers: McpClientAnswers) {
  return {
    ...(answers.sampling === false ? {} : { sampling: {} }),
    ...(answers.elicit === false ? {} : { elicitation: { form: { applyDefaults: true }, url: {} } }),
    ...(answers.roots === false ? {} : { roots: { listChanged: false } }),
  };
}

/** Registers the handlers for the server's `sampling/createMessage`, `elicitation/create` and `roots/list`. */
export function answerServerRequests(
  sdk: McpClientSdk,
  client: Client,
  context: { server: string; answers: McpClientAnswers; active: ActiveCalls },
): void {
  const { answers, active, server } = context;
  const { types } = sdk;
  const current = () => active[active.length - 1];
  const refuse = (message: string) => new types.McpError(types.ErrorCode.InvalidRequest, message);
  if (answers.sampling !== false) {
    const sampling = answers.sampling ?? {};
    client.setRequestHandler(types.CreateMessageRequestSchema, async (request, extra) => {
      const ctx = current();
      const asked = toSampleRequest(request.params);
      const approved = sampling.approve
        ? await sampling.approve(asked, server)
        : ctx
          ? await ctx.approve({
              tool: `${server} sampling`,
              input: asked,
              question: `The MCP server "${server}" asks the model: ${textOf(request.params)}`,
            })
          : false;
      if (!approved)
        throw refuse(`Sampling request declined by the ${sampling.approve ? 'sampling approval hook' : 'person'}.`);
      const model = sampling.model ?? ctx?.parent?.model;
      if (!model) throw refuse('No model answers sampling here: pass mcpTools({ sampling: { model } }).');
      return sample(
        model,
        request.params,
        Math.min(request.params.maxTokens, sampling.maxTokens ?? 4096),
        extra.signal,
      );
    });
  }
  if (answers.elicit !== false) {
    const fallback = answers.elicit;
    client.setRequestHandler(types.ElicitRequestSchema, async (request): Promise<McpElicitResult> => {
      const asked = request.params as ElicitRequest;
      const ctx = current();
      try {
        if (ctx?.elicit) return (await ctx.elicit(asked)) as McpElicitResult;
        if (ctx?.ask) return (await elicitByAsking(ctx.ask, asked, server)) as McpElicitResult;
        if (fallback) return (await fallback(asked, server)) as McpElicitResult;
      } catch (error) {
        throw new types.McpError(types.ErrorCode.InternalError, `Elicitation failed: ${errorMessage(error)}`);
      }
      return { action: 'decline' };
    });
  }
  if (answers.roots !== false) {
    const roots = (answers.roots ?? [process.cwd()]).map((root) =>
      typeof root === 'string'
        ? { uri: root.startsWith('file://') ? root : pathToFileURL(root).href, name: root.split(/[\\/]/).pop() || root }
        : root,
    );
    client.setRequestHandler(types.ListRootsRequestSchema, () => ({ roots }));
  }
}

/**
 * A sampling request as a `SampleRequest`: each content block of a message is one message of the same
 * role (a sampling message may hold several), audio a file part, and a block thinkflow has no part
 * for (a tool use or result) its JSON as text, so nothing the server sent is lost.
 */
function toSampleRequest(params: CreateMessageRequest['params']): SampleRequest {
  return {
    messages: params.messages.flatMap((message) =>
      (Array.isArray(message.content) ? message.content : [message.content]).map((block) => ({
        role: message.role,
        content: samplePart(block),
      })),
    ),
    maxTokens: params.maxTokens,
    systemPrompt: params.systemPrompt,
    temperature: params.temperature,
    stopSequences: params.stopSequences,
  };
}

type SamplingBlock = Extract<CreateMessageRequest['params']['messages'][number]['content'], { type: string }>;

function samplePart(block: SamplingBlock): ContentPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', data: block.data, mediaType: block.mimeType };
    case 'audio':
      return { type: 'file', data: block.data, mediaType: block.mimeType };
    default:
      return { type: 'text', text: JSON.stringify(block) };
  }
}

function textOf(params: CreateMessageRequest['params']): string {
  const text = toSampleRequest(params)
    .messages.map((m) =>
      typeof m.content === 'string' ? m.content : m.content.type === 'text' ? m.content.text : `[${m.content.type}]`,
    )
    .join('\n');
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

async function sample(
  model: Model,
  params: CreateMessageRequest['params'],
  maxTokens: number,
  signal: AbortSignal,
): Promise<CreateMessageResult> {
  const messages: Message[] = params.systemPrompt ? [{ role: 'system', content: params.systemPrompt }] : [];
  for (const message of toSampleRequest(params).messages) {
    const content = message.content as ContentPart;
    // An assistant message is text: media it held is named, not dropped.
    if (message.role === 'assistant')
      messages.push({
        role: 'assistant',
        content:
          content.type === 'text'
            ? content.text
            : `[${content.type}${'mediaType' in content ? `: ${content.mediaType}` : ''}]`,
      });
    else messages.push({ role: 'user', content: content.type === 'text' ? content.text : [content] });
  }
  const reply = await model.generate({
    messages,
    maxTokens,
    temperature: params.temperature,
    stop: params.stopSequences,
    signal,
  });
  return {
    role: 'assistant',
    content: { type: 'text', text: reply.text },
    model: reply.modelId ?? model.id,
    stopReason: reply.finishReason === 'length' ? 'maxTokens' : 'endTurn',
  };
}

/**
 * Elicitation through the run's `ask` channel (the CLI prompt, the server's pending question, the
 * Studio form), which carries one text question and one text answer: a form is asked field by
 * field (an empty answer keeps the default), a URL as "open it, then answer".
 */
async function elicitByAsking(
  ask: (q: string) => Promise<string>,
  request: ElicitRequest,
  server: string,
): Promise<ElicitResult> {
  if (request.mode === 'url') {
    const answer = await ask(
      `${request.message}\nOpen ${request.url} (asked by the MCP server "${server}"), then answer "done", or "decline".`,
    );
    return /^\s*(no|decline|cancel)\b/i.test(answer) ? { action: 'decline' } : { action: 'accept' };
  }
  const content: NonNullable<ElicitResult['content']> = {};
  const required = new Set(request.requestedSchema.required ?? []);
  for (const [field, schema] of Object.entries(request.requestedSchema.properties)) {
    const label = String(schema.title ?? schema.description ?? field);
    const choices = Array.isArray(schema.enum) ? ` (one of: ${schema.enum.join(', ')})` : '';
    const fallback = schema.default !== undefined ? ` [default: ${String(schema.default)}]` : '';
    const answer = (
      await ask(`${request.message}\n${label}${choices}${fallback}${required.has(field) ? '' : ' (optional)'}`)
    ).trim();
    if (answer === '') {
      if (schema.default !== undefined) content[field] = schema.default as string;
      continue;
    }
    content[field] = coerce(answer, schema.type);
  }
  return { action: 'accept', content };
}

function coerce(answer: string, type: unknown): string | number | boolean | string[] {
  if (type === 'number' || type === 'integer') return Number(answer);
  if (type === 'boolean') return /^(y|yes|true|1|ok)$/i.test(answer);
  if (type === 'array') return answer.split(',').map((part) => part.trim());
  return answer;
}
