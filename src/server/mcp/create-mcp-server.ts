import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, LoggingLevel, Tool as McpToolListing } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, requireOptional } from '../../core/index.js';
import { type AnyTool, formatInputIssues } from '../../tools/index.js';
import { MAX_BODY_DEPTH, nestingDepth } from '../http/index.js';
import { type McpCatalog, registerCatalog } from './mcp-catalog.js';
import { toMcpContent } from './mcp-content.js';
import { type McpCallContext, mcpToolContext } from './mcp-tool-context.js';

/** Options for `createMcpServer`: what the server announces and serves besides its tools. */
export interface McpServerInfo extends McpCatalog {
  /** Server name announced to clients (default `thinkflow`). */
  name?: string;
  version?: string;
  /** Told to the client on `initialize`: how to use this server. */
  instructions?: string;
}

/** zod (`defineTool`) emits JSON Schema 2020-12; the listing says so unless a tool named its own dialect. */
const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const subscriptionsOf = new WeakMap<Server, Set<string>>();

/**
 * Builds an MCP server (the SDK's low-level `Server`) that lists the given thinkflow tools with
 * their JSON Schemas, titles and annotations and runs them on `tools/call`, plus the resources,
 * resource templates and prompts given. Tool results keep their content types (image, audio,
 * embedded resource, resource link). Unknown tools, invalid arguments, tool throws and timeouts
 * come back as `isError: true` results carrying the message, so the calling model can fix its
 * call. A tool's context can report progress, log, and ask the client for sampling and
 * elicitation (see `ToolContext`). Connect it to any transport with `server.connect(transport)`.
 */
export function createMcpServer(tools: readonly AnyTool[], info: McpServerInfo = {}): Server {
  // The MCP SDK is an optional peer: it loads here, when a server is first made.
  const sdk = '@modelcontextprotocol/sdk';
  const { Server } = requireOptional<typeof import('@modelcontextprotocol/sdk/server/index.js')>(
    'mcp',
    sdk,
    'server/index.js',
  );
  const { CallToolRequestSchema, ListToolsRequestSchema, SetLevelRequestSchema } = requireOptional<
    typeof import('@modelcontextprotocol/sdk/types.js')
  >('mcp', sdk, 'types.js');
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const hasResources = (info.resources?.length ?? 0) > 0 || (info.resourceTemplates?.length ?? 0) > 0;
  const server = new Server(
    { name: info.name ?? 'thinkflow', version: info.version ?? '0.1.0' },
    {
      capabilities: {
        tools: {},
        logging: {},
        completions: {},
        ...(hasResources ? { resources: { subscribe: true } } : {}),
        ...(info.prompts?.length ? { prompts: {} } : {}),
      },
      instructions: info.instructions,
    },
  );
  let level: LoggingLevel | undefined;
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    level = request.params.level;
    return {};
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(
      (tool): McpToolListing => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: { $schema: tool.schemaDialect ?? DIALECT, type: 'object' as const, ...tool.parameters },
        annotations: tool.annotations ?? (tool.idempotent ? { idempotentHint: true } : undefined),
      }),
    ),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      return failure(`Unknown tool "${request.params.name}". Available: ${[...byName.keys()].join(', ')}.`);
    }
    return callTool(tool, request.params.arguments ?? {}, {
      server,
      extra,
      signal: extra.signal,
      logLevel: () => level,
    });
  });
  const subscriptions = new Set<string>();
  subscriptionsOf.set(server, subscriptions);
  registerCatalog(server, info, subscriptions);
  return server;
}

/** Tells a server's client that a resource it subscribed to changed (nothing when it did not subscribe). */
export async function notifyResourceUpdated(server: Server, uri: string): Promise<void> {
  if (subscriptionsOf.get(server)?.has(uri)) await server.sendResourceUpdated({ uri }).catch(() => undefined);
}

async function callTool(tool: AnyTool, input: unknown, call: McpCallContext): Promise<CallToolResult> {
  // Validating (and quoting) deeper arguments would overflow the stack and answer with its internal text.
  if (nestingDepth(input, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
    return failure(`The arguments of "${tool.name}" are nested deeper than ${MAX_BODY_DEPTH} levels.`);
  }
  const parsed = tool.parse(input);
  if (!parsed.ok) return failure(formatInputIssues(tool, parsed.issues, input));
  // A timer we hold rather than `AbortSignal.timeout`: combined by `AbortSignal.any`, that signal is only
  // weakly held and can be collected before it fires, so a hung tool would never time out.
  const deadline = new AbortController();
  const timer = tool.timeoutMs ? setTimeout(() => deadline.abort(), tool.timeoutMs) : undefined;
  const ctx = mcpToolContext({ ...call, signal: AbortSignal.any([call.signal, deadline.signal]) });
  try {
    const gated =
      typeof tool.needsApproval === 'function' ? await tool.needsApproval(parsed.value) : tool.needsApproval;
    if (gated && !(await ctx.approve({ tool: tool.name, input: parsed.value }))) {
      return failure(
        call.server.getClientCapabilities()?.elicitation
          ? `Tool "${tool.name}" was not approved.`
          : `Tool "${tool.name}" needs a person's approval; this MCP client cannot be asked (it did not declare elicitation).`,
      );
    }
    const output = await raceAbort(Promise.resolve(tool.run(parsed.value, ctx)), ctx.signal);
    const content = toMcpContent(output);
    // Content the client could not read is refused in the open, never sent as something else.
    return content.ok ? { content: content.content } : failure(`Tool "${tool.name}" returned ${content.message}`);
  } catch (error) {
    if (ctx.signal.aborted && !call.signal.aborted)
      return failure(`Tool "${tool.name}" timed out after ${tool.timeoutMs} ms.`);
    return failure(`Tool "${tool.name}" failed: ${errorMessage(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Tools that ignore their signal still must not hold the call past a timeout. */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function failure(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}
