import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CreateMessageRequestParams,
  ElicitRequestParams,
  LoggingLevel,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { redactText } from '../../core/index.js';
import type {
  ElicitRequest,
  ElicitResult,
  LogLevel,
  SampleRequest,
  SampleResult,
  ToolContext,
} from '../../tools/index.js';

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** What one `tools/call` shares with the tool it runs. */
export interface McpCallContext {
  server: Server;
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>;
  signal: AbortSignal;
  /** The lowest level the client asked to receive (`logging/setLevel`); undefined sends all. */
  logLevel(): LoggingLevel | undefined;
}

/**
 * The context a tool gets when an MCP client calls it: `progress` and `log` always (progress is a
 * no-op when the client sent no progress token), `sample` and `elicit` only when the client
 * declared those capabilities. Every request goes out on the call's own stream. Approval and
 * `ask` go through elicitation when the client has it; without it, tools that need approval are
 * denied and `ask` is absent.
 */
export function mcpToolContext({ server, extra, signal, logLevel }: McpCallContext): ToolContext {
  const related = { relatedRequestId: extra.requestId };
  const token = extra._meta?.progressToken;
  const client = server.getClientCapabilities() ?? {};
  const log = async (level: LogLevel, message: string) => {
    const floor = logLevel();
    if (floor && LEVELS.indexOf(level) < LEVELS.indexOf(floor)) return;
    await extra
      .sendNotification({ method: 'notifications/message', params: { level, data: message } })
      .catch(() => undefined);
  };
  const logTo = (level: LogLevel) => (message: string) => {
    process.stderr.write(`[${level}] ${redactText(message)}\n`);
    void log(level, message);
  };
  const elicit = client.elicitation
    ? async (request: ElicitRequest): Promise<ElicitResult> =>
        (await server.elicitInput(request as ElicitRequestParams, { ...related, signal })) as ElicitResult
    : undefined;
  return {
    signal,
    runId: 'mcp',
    callId: String(extra.requestId),
    logger: { debug: () => undefined, info: logTo('info'), warn: logTo('warning'), error: logTo('error') },
    approve: async (request) => {
      if (!elicit) return false;
      const question =
        request.question ?? `Allow the tool "${request.tool}" to run with ${JSON.stringify(request.input)}?`;
      const answer = await elicit({
        message: question,
        requestedSchema: {
          type: 'object',
          properties: { approve: { type: 'boolean', title: 'Approve' } },
          required: ['approve'],
        },
      });
      return answer.action === 'accept' && answer.content?.approve === true;
    },
    ask: elicit
      ? async (question) => {
          const answer = await elicit({
            message: question,
            requestedSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
          });
          return answer.action === 'accept'
            ? String(answer.content?.answer ?? '')
            : `(the person chose to ${answer.action})`;
        }
      : undefined,
    progress: async (progress, total, message) => {
      if (token === undefined) return;
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress, total, message },
      });
    },
    log,
    sample: client.sampling ? (request) => sample(server, request, { ...related, signal }) : undefined,
    elicit,
  };
}

async function sample(
  server: Server,
  request: SampleRequest,
  options: { relatedRequestId: string | number; signal: AbortSignal },
): Promise<SampleResult> {
  const params: CreateMessageRequestParams = {
    ...request,
    messages: request.messages.map((message) => ({
      role: message.role,
      content:
        typeof message.content === 'string'
          ? { type: 'text', text: message.content }
          : message.content.type === 'text'
            ? message.content
            : 'data' in message.content
              ? { type: 'image', data: message.content.data, mimeType: message.content.mediaType }
              : { type: 'text', text: JSON.stringify(message.content) },
    })),
  };
  const reply = await server.createMessage(params, options);
  const content = Array.isArray(reply.content) ? reply.content[0] : reply.content;
  const shaped: SampleResult['content'] =
    content?.type === 'image' || content?.type === 'audio'
      ? { type: content.type, data: content.data, mediaType: content.mimeType }
      : { type: 'text', text: content?.type === 'text' ? content.text : '' };
  return {
    text: shaped.type === 'text' ? shaped.text : '',
    content: shaped,
    model: reply.model,
    stopReason: reply.stopReason,
  };
}
