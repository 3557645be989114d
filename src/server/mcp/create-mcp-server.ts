import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, redactText, requireOptional } from '../../core/index.js';
import { type AnyTool, formatInputIssues, serializeOutput, type ToolContext } from '../../tools/index.js';
import { MAX_BODY_DEPTH, nestingDepth } from '../http-error.js';

/** Options for `createMcpServer`. */
export interface McpServerInfo {
  /** Server name announced to clients (default `thinkflow`). */
  name?: string;
  version?: string;
}

/**
 * Builds an MCP server (the SDK's low-level `Server`) that lists the given thinkflow tools with
 * their JSON Schemas and runs them on `tools/call`. Unknown tools, invalid arguments, tool throws
 * and timeouts come back as `isError: true` results carrying the message, so the calling model can
 * fix its call. Connect it to any transport with `server.connect(transport)`.
 */
export function createMcpServer(tools: readonly AnyTool[], info: McpServerInfo = {}): Server {
  // The MCP SDK is an optional peer: it loads here, when a server is first made.
  const sdk = '@modelcontextprotocol/sdk';
  const { Server } = requireOptional<typeof import('@modelcontextprotocol/sdk/server/index.js')>(
    'mcp',
    sdk,
    'server/index.js',
  );
  const { CallToolRequestSchema, ListToolsRequestSchema } = requireOptional<
    typeof import('@modelcontextprotocol/sdk/types.js')
  >('mcp', sdk, 'types.js');
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server(
    { name: info.name ?? 'thinkflow', version: info.version ?? '0.1.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: { type: 'object' as const, ...tool.parameters },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      return failure(`Unknown tool "${request.params.name}". Available: ${[...byName.keys()].join(', ')}.`);
    }
    return callTool(tool, request.params.arguments ?? {}, extra.signal, String(extra.requestId));
  });
  return server;
}

async function callTool(tool: AnyTool, input: unknown, signal: AbortSignal, callId: string): Promise<CallToolResult> {
  // Validating (and quoting) deeper arguments would overflow the stack and answer with its internal text.
  if (nestingDepth(input, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
    return failure(`The arguments of "${tool.name}" are nested deeper than ${MAX_BODY_DEPTH} levels.`);
  }
  const parsed = tool.parse(input);
  if (!parsed.ok) return failure(formatInputIssues(tool, parsed.issues, input));
  const gated = typeof tool.needsApproval === 'function' ? await tool.needsApproval(parsed.value) : tool.needsApproval;
  if (gated) return failure(`Tool "${tool.name}" needs a person's approval, which an MCP call cannot ask for.`);
  // A timer we hold rather than `AbortSignal.timeout`: combined by `AbortSignal.any`, that signal is only
  // weakly held and can be collected before it fires, so a hung tool would never time out.
  const deadline = new AbortController();
  const timer = tool.timeoutMs ? setTimeout(() => deadline.abort(), tool.timeoutMs) : undefined;
  const ctx = mcpToolContext(AbortSignal.any([signal, deadline.signal]), callId);
  try {
    const output = await raceAbort(Promise.resolve(tool.run(parsed.value, ctx)), ctx.signal);
    return { content: [{ type: 'text', text: serializeOutput(output) }] };
  } catch (error) {
    if (ctx.signal.aborted && !signal.aborted)
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

function mcpToolContext(signal: AbortSignal, callId: string): ToolContext {
  const log = (level: string) => (message: string) => process.stderr.write(`[${level}] ${redactText(message)}\n`);
  return {
    signal,
    runId: 'mcp',
    callId,
    logger: { debug: () => undefined, info: log('info'), warn: log('warn'), error: log('error') },
    // MCP has no person in the loop here: tools that need approval are denied.
    approve: async () => false,
  };
}

function failure(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}
