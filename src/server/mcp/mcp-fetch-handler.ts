import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { redactText, requireOptional } from '../../core/index.js';
import { type AnyTool, jsonRpcIdOf } from '../../tools/index.js';
import { type AuthConfig, resolveCaller } from '../caller/index.js';
import {
  closeIfBodyUnread,
  decodeUtf8,
  errorStatus,
  MAX_BODY_DEPTH,
  nestingDepth,
  readLimitedBody,
  withConnectionClose,
} from '../http/index.js';
import { type CorsConfig, type Refuse, type SecurityConfig, securityMiddleware } from '../security/index.js';
import { createMcpServer, type McpServerInfo, notifyResourceUpdated } from './create-mcp-server.js';
import { type McpSessionLimits, mcpSessions, memoryEventStore, newSessionId } from './mcp-sessions.js';

/** Options for `mcpFetchHandler`. */
export interface McpFetchHandlerOptions extends McpServerInfo, McpSessionLimits {
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

/** A `fetch(Request) → Response` MCP endpoint, with what it needs beyond answering requests. */
export interface McpFetchHandler {
  (request: Request): Promise<Response>;
  /** Tells every session subscribed to `uri` that the resource changed. */
  resourceUpdated(uri: string): Promise<void>;
  /** Closes every session (their open streams end). */
  close(): Promise<void>;
}

const MAX_BODY = 4 * 1024 * 1024;

/** The body of an HTTP-level error in the JSON-RPC shape the MCP SDK uses for its own (406, 413, parse errors). */
export function rpcErrorBody(code: number, message: string, id: string | number | null = null) {
  return { jsonrpc: '2.0', error: { code, message }, id };
}

/** An HTTP-level error in the JSON-RPC shape, so every answer of the endpoint is one a client can read. */
function rpcError(
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
  id: string | number | null = null,
): Response {
  return Response.json(rpcErrorBody(code, message, id), { status, headers });
}

/**
 * The answer to a body that is JSON but not JSON-RPC (a wrong `jsonrpc`, no `method`, an empty batch):
 * -32600 Invalid Request with the message's id when it has one. The SDK would answer -32700 with id
 * null, which tells the client neither what was wrong nor which request it was.
 */
function invalidRequest(body: unknown, isMessage: (message: unknown) => boolean): Response | undefined {
  const messages = Array.isArray(body) ? body : [body];
  const bad = messages.findIndex((message) => !isMessage(message));
  if (messages.length > 0 && bad === -1) return undefined;
  return rpcError(
    400,
    -32600,
    'Invalid Request: send { "jsonrpc": "2.0", "id", "method", "params" } (or a response to a request of the server).',
    undefined,
    Array.isArray(body) ? null : jsonRpcIdOf(body),
  );
}

const refuse: Refuse = (_c, code, message, headers) => rpcError(errorStatus(code), -32000, message, headers);

/**
 * A `fetch(Request) → Response` handler speaking MCP streamable HTTP. An `initialize` request opens
 * a session (its id comes back in `Mcp-Session-Id`): the session keeps one server, so a tool can
 * send progress and logs and ask the client for sampling and elicitation while it runs, `GET` holds
 * the session's event stream, a broken stream resumes with `Last-Event-ID`, and `DELETE` ends it.
 * A request without a session id that is not `initialize` is answered statelessly, by a fresh
 * server. In front of it are the checks of the HTTP API (`securityMiddleware`: Host, Origin, body
 * type; and the bearer tokens of `auth`), so a web page cannot call the tools.
 * Mount it in hono (`app.all('/mcp', (c) => handler(c.req.raw))`) or bind it with `serveMcp`.
 */
export function mcpFetchHandler(tools: readonly AnyTool[], options: McpFetchHandlerOptions = {}): McpFetchHandler {
  const endpoint = mcpEndpoint(tools, options);
  const app = new Hono();
  app.use('*', securityMiddleware({ security: options.security, cors: options.cors, refuse }));
  // MCP has no principals: any configured token opens it.
  // The API's own caller check (tokens with principals, resolvePrincipal), answering in JSON-RPC.
  app.use('*', resolveCaller(options.auth, refuse));
  app.all('*', (c) => answerMcp(endpoint, c.req.raw));
  app.onError((error) => {
    if (error instanceof HTTPException) return error.getResponse();
    return endpoint.failed(error);
  });
  const handler = async (request: Request) => closeIfBodyUnread(request, await app.fetch(request));
  return Object.assign(handler, {
    async resourceUpdated(uri: string) {
      await Promise.all(endpoint.sessions.all().map((session) => notifyResourceUpdated(session.server, uri)));
    },
    close: () => endpoint.sessions.close(),
  });
}

type Transports = typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js');

/** What answering the endpoint's requests works with: the tools, the SDK's transport, the open sessions. */
interface McpEndpoint {
  tools: readonly AnyTool[];
  options: McpFetchHandlerOptions;
  path: string;
  Transport: Transports['WebStandardStreamableHTTPServerTransport'];
  isMessage: (message: unknown) => boolean;
  sessions: ReturnType<typeof mcpSessions>;
  /** Reports a failure and answers the JSON-RPC 500. */
  failed: (error: unknown) => Response;
}

function mcpEndpoint(tools: readonly AnyTool[], options: McpFetchHandlerOptions): McpEndpoint {
  const { WebStandardStreamableHTTPServerTransport } = requireOptional<Transports>(
    'mcp',
    '@modelcontextprotocol/sdk',
    'server/webStandardStreamableHttp.js',
  );
  const { JSONRPCMessageSchema } = requireOptional<typeof import('@modelcontextprotocol/sdk/types.js')>(
    'mcp',
    '@modelcontextprotocol/sdk',
    'types.js',
  );
  return {
    tools,
    options,
    path: options.path ?? '/mcp',
    Transport: WebStandardStreamableHTTPServerTransport,
    isMessage: (message) => JSONRPCMessageSchema.safeParse(message).success,
    sessions: mcpSessions(options),
    failed: (error) => {
      if (options.onError) options.onError(error);
      else process.stderr.write(`thinkflow mcp: ${redactText(String(error))}\n`);
      return rpcError(500, -32603, 'Internal error: the MCP endpoint failed to handle the request.');
    },
  };
}

/** Answers a request: a session's goes to its transport, `initialize` opens one, the rest are answered statelessly. */
async function answerMcp(endpoint: McpEndpoint, request: Request): Promise<Response> {
  const { path } = endpoint;
  const { pathname } = new URL(request.url);
  if (pathname !== path) return rpcError(404, -32000, `Not found: the MCP endpoint is ${path}, not ${pathname}.`);
  const id = request.headers.get('mcp-session-id');
  try {
    // A POST's body is read (and its JSON-RPC checked) here, for a session's requests as for the others.
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    if (body instanceof Response) return body;
    const invalid = request.method === 'POST' ? invalidRequest(body, endpoint.isMessage) : undefined;
    if (invalid) return invalid;
    if (id) {
      const session = endpoint.sessions.get(id);
      if (!session)
        return rpcError(404, -32001, 'Session not found: it ended or expired. Start a new one with initialize.');
      return await session.transport.handleRequest(request, request.method === 'POST' ? { parsedBody: body } : {});
    }
    if (request.method !== 'POST') {
      const why = `Method not allowed: ${request.method} ${path} needs an Mcp-Session-Id (send initialize first).`;
      return rpcError(405, -32000, why, { Allow: 'POST' });
    }
    const messages = Array.isArray(body) ? body : [body];
    const initialize = messages.some((m) => (m as { method?: unknown } | null)?.method === 'initialize');
    return await (initialize ? openSession(endpoint, request, body) : answerStateless(endpoint, request, body));
  } catch (error) {
    return endpoint.failed(error);
  }
}

/** `initialize` opens a session that keeps one server, so its tools can talk to the client while they run. */
async function openSession(endpoint: McpEndpoint, request: Request, body: unknown): Promise<Response> {
  const { sessions } = endpoint;
  const server = createMcpServer(endpoint.tools, endpoint.options);
  const transport: InstanceType<McpEndpoint['Transport']> = new endpoint.Transport({
    sessionIdGenerator: newSessionId,
    eventStore: memoryEventStore(),
    onsessioninitialized: (id) => sessions.add(id, { server, transport, lastSeen: Date.now() }),
    onsessionclosed: (id) => sessions.delete(id),
  });
  await server.connect(transport);
  return transport.handleRequest(request, { parsedBody: body });
}

/** A request without a session, answered by a fresh server. */
async function answerStateless(endpoint: McpEndpoint, request: Request, body: unknown): Promise<Response> {
  const server = createMcpServer(endpoint.tools, endpoint.options);
  const transport = new endpoint.Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    await server.close();
  }
}

/**
 * The JSON body, read up to 4 MiB; an error response when it is too big, not UTF-8, not JSON or nested
 * too deep. A body over the limit is drained when that is cheap, else the answer closes the connection
 * (see `readLimitedBody`).
 */
async function readJson(request: Request): Promise<unknown> {
  const read = await readLimitedBody(request, MAX_BODY);
  if (!read.ok) {
    const tooLarge = rpcError(413, -32000, `Payload too large: the limit is ${MAX_BODY} bytes.`);
    return read.drained ? tooLarge : withConnectionClose(tooLarge);
  }
  if (read.bytes.byteLength === 0) return rpcError(400, -32700, 'Parse error: the request has no body.');
  const text = decodeUtf8(read.bytes);
  if (text === undefined) return rpcError(400, -32700, 'Parse error: the body is not valid UTF-8.');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return rpcError(400, -32700, 'Parse error: the body is not JSON.');
  }
  if (nestingDepth(json, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
    return rpcError(400, -32600, `Invalid Request: the body is nested deeper than ${MAX_BODY_DEPTH} levels.`);
  }
  return json;
}
