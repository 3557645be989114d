import { requireOptional } from '../../core/index.js';
import type { AnyTool } from '../../tools/index.js';
import type { AuthConfig } from '../caller/index.js';
import { listenHttp } from '../listen/index.js';
import { boundHosts, type CorsConfig, envApiTokens, type SecurityConfig } from '../security/index.js';
import { createMcpServer, type McpServerInfo, notifyResourceUpdated } from './create-mcp-server.js';
import { mcpFetchHandler, rpcErrorBody } from './mcp-fetch-handler.js';
import type { McpSessionLimits } from './mcp-sessions.js';

/** How `serveMcp` is reached: stdin/stdout, or streamable HTTP on a port. */
export type McpTransportOptions =
  | { transport: 'stdio' }
  | ({
      transport: 'http';
      /** Port to bind (0 picks a free one; default 0). */
      port?: number;
      /** Interface to bind (default `127.0.0.1`). */
      host?: string;
      /** Endpoint path (default `/mcp`). */
      path?: string;
      /** Bearer tokens a client must send, with those of `THINKFLOW_API_TOKENS` (as `serve` reads them); with none the endpoint is open. */
      auth?: AuthConfig;
      /** Host names answered besides loopback ones and `host` (403 otherwise). */
      security?: SecurityConfig;
      /** Origins whose pages may call the endpoint (CORS is off without them). */
      cors?: CorsConfig;
    } & McpSessionLimits);

export type ServeMcpOptions = McpTransportOptions & McpServerInfo;

/** A running MCP server. */
export interface McpServing {
  /** The endpoint URL (HTTP only). */
  readonly url?: string;
  /** Tells the clients subscribed to `uri` (`resources/subscribe`) that the resource changed. */
  resourceUpdated(uri: string): Promise<void>;
  close(): Promise<void>;
}

/** A running MCP server on streamable HTTP: its URL is always known. */
export interface McpHttpServing extends McpServing {
  readonly url: string;
}

/**
 * Serves thinkflow tools over MCP, on stdio (for clients that spawn `thinkflow mcp-serve`) or on
 * streamable HTTP with sessions, with the `resources`, `resourceTemplates` and `prompts` given.
 * Validation errors and tool failures come back as `isError` results.
 *
 * @example
 * const serving = await serveMcp([calculatorTool], {
 *   transport: 'http',
 *   port: 3001,
 *   resources: [{ uri: 'notes://today', name: 'today', mimeType: 'text/plain', read: () => 'Buy milk.' }],
 *   prompts: [{ name: 'review', description: 'Review a file', arguments: [{ name: 'path', required: true }], get: ({ path }) => `Review ${path}.` }],
 * });
 * console.log(serving.url); // http://127.0.0.1:3001/mcp
 */
export async function serveMcp(
  tools: readonly AnyTool[],
  options: Extract<McpTransportOptions, { transport: 'http' }> & McpServerInfo,
): Promise<McpHttpServing>;
export async function serveMcp(tools: readonly AnyTool[], options: ServeMcpOptions): Promise<McpServing>;
export async function serveMcp(tools: readonly AnyTool[], options: ServeMcpOptions): Promise<McpServing> {
  if (options.transport === 'stdio') {
    const server = createMcpServer(tools, options);
    const { StdioServerTransport } = requireOptional<typeof import('@modelcontextprotocol/sdk/server/stdio.js')>(
      'mcp',
      '@modelcontextprotocol/sdk',
      'server/stdio.js',
    );
    await server.connect(new StdioServerTransport());
    return { resourceUpdated: (uri) => notifyResourceUpdated(server, uri), close: () => server.close() };
  }
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const allowedHosts = [...(options.security?.allowedHosts ?? []), ...boundHosts(host)];
  const tokens = [...(options.auth?.tokens ?? []), ...envApiTokens().filter((token) => token.length > 0)];
  const fetch = mcpFetchHandler(tools, {
    ...options,
    path,
    auth: { ...options.auth, tokens },
    security: { ...options.security, allowedHosts },
  });
  const { server, port } = await listenHttp({
    fetch,
    port: options.port ?? 0,
    hostname: host,
    errorBody: (_code, message) => rpcErrorBody(-32000, message),
  });
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`,
    resourceUpdated: (uri) => fetch.resourceUpdated(uri),
    close: async () => {
      await fetch.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
    },
  };
}
