import { requireOptional } from '../../core/index.js';
import type { AnyTool } from '../../tools/index.js';
import { createMcpServer, type McpServerInfo } from './create-mcp-server.js';

/** Options for `mcpFetchHandler`. */
export interface McpFetchHandlerOptions extends McpServerInfo {
  /** Path the MCP endpoint answers on (default `/mcp`); other paths get 404. */
  path?: string;
}

/**
 * A `fetch(Request) → Response` handler speaking MCP streamable HTTP, statelessly: each request
 * gets a fresh server and transport, so nothing leaks between clients and a restart loses nothing.
 * Mount it in hono (`app.all('/mcp', (c) => handler(c.req.raw))`) or bind it with `serveMcp`.
 */
export function mcpFetchHandler(
  tools: readonly AnyTool[],
  options: McpFetchHandlerOptions = {},
): (request: Request) => Promise<Response> {
  const path = options.path ?? '/mcp';
  const { WebStandardStreamableHTTPServerTransport } = requireOptional<
    typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')
  >('mcp', '@modelcontextprotocol/sdk', 'server/webStandardStreamableHttp.js');
  return async (request) => {
    if (new URL(request.url).pathname !== path) return new Response('Not found', { status: 404 });
    const server = createMcpServer(tools, options);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  };
}
