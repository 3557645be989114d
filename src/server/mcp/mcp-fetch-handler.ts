import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { redactText, requireOptional } from '../../core/index.js';
import type { AnyTool } from '../../tools/index.js';
import { closeIfBodyUnread } from '../close-unread-body.js';
import type { AuthConfig } from '../create-app.js';
import { errorStatus } from '../http-error.js';
import {
  bearerTokenAuth,
  type CorsConfig,
  type Refuse,
  type SecurityConfig,
  securityMiddleware,
} from '../security/index.js';
import { createMcpServer, type McpServerInfo } from './create-mcp-server.js';

/** Options for `mcpFetchHandler`. */
export interface McpFetchHandlerOptions extends McpServerInfo {
  /** Path the MCP endpoint answers on (default `/mcp`); other paths get 404. */
  path?: string;
  /** Called with each error the handler threw (the client gets a JSON-RPC 500 without its details). Default: stderr, redacted. */
  onError?: (error: unknown) => void;
  /** Bearer tokens a client must send, as `thinkflow serve` takes them. With none the endpoint is open. */
  auth?: AuthConfig;
  /** Host names answered besides loopback ones (403 otherwise), as for the HTTP API. */
  security?: SecurityConfig;
  /** Origins whose pages may call the endpoint (CORS is off without them). */
  cors?: CorsConfig;
}

/** The body of an HTTP-level error in the JSON-RPC shape the MCP SDK uses for its own (406, 413, parse errors). */
export function rpcErrorBody(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

/** An HTTP-level error in the JSON-RPC shape, so every answer of the endpoint is one a client can read. */
function rpcError(status: number, code: number, message: string, headers?: Record<string, string>): Response {
  return Response.json(rpcErrorBody(code, message), { status, headers });
}

const refuse: Refuse = (_c, code, message, headers) => rpcError(errorStatus(code), -32000, message, headers);

/**
 * A `fetch(Request) → Response` handler speaking MCP streamable HTTP, statelessly: each request
 * gets a fresh server and transport, so nothing leaks between clients and a restart loses nothing.
 * In front of it are the checks of the HTTP API (`securityMiddleware`: Host, Origin, body type; and
 * the bearer tokens of `auth`), so a web page cannot call the tools.
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
  const answer = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname !== path) return rpcError(404, -32000, `Not found: the MCP endpoint is ${path}, not ${pathname}.`);
    const server = createMcpServer(tools, options);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      return await transport.handleRequest(request);
    } catch (error) {
      if (options.onError) options.onError(error);
      else process.stderr.write(`thinkflow mcp: ${redactText(String(error))}\n`);
      return rpcError(500, -32603, 'Internal error: the MCP endpoint failed to handle the request.');
    } finally {
      await server.close();
    }
  };
  const app = new Hono();
  app.use('*', securityMiddleware({ security: options.security, cors: options.cors, refuse }));
  // MCP has no principals: any configured token opens it.
  const tokens = (options.auth?.tokens ?? []).map((t) => (typeof t === 'string' ? t : t.token));
  if (tokens.some((token) => token.length > 0)) app.use('*', bearerTokenAuth(tokens, refuse));
  app.all('*', (c) => answer(c.req.raw));
  app.onError((error) => {
    if (error instanceof HTTPException) return error.getResponse();
    if (options.onError) options.onError(error);
    else process.stderr.write(`thinkflow mcp: ${redactText(String(error))}\n`);
    return rpcError(500, -32603, 'Internal error: the MCP endpoint failed to handle the request.');
  });
  return async (request) => closeIfBodyUnread(request, await app.fetch(request));
}
