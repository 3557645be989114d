import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  CallToolResult,
  GetPromptResult,
  Tool as McpTool,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { ConfigError, errorMessage, ThinkflowError } from '../../core/index.js';
import type { ToolContext } from '../tool.js';
import { type ActiveCalls, answerServerRequests, clientCapabilities } from './mcp-client-requests.js';
import { loadMcpClientSdk, type McpClientSdk } from './mcp-client-sdk.js';
import { type McpAuthSession, mcpAuthSession, unauthorizedHelp } from './mcp-oauth.js';
import { type McpServerOptions, mcpServerName } from './mcp-server-options.js';

/** One live (or restartable) link to an MCP server. */
export interface McpConnection {
  readonly name: string;
  /** Every tool the server lists (all pages). */
  listTools(): Promise<McpTool[]>;
  /**
   * Calls a tool in the context of the thinkflow call that runs it (the server's sampling and
   * elicitation requests are answered there, progress goes to its events). Throws a `ThinkflowError`
   * (code `tool`) whose message is fit for the model to read.
   */
  callTool(tool: string, input: Record<string, unknown>, ctx?: ToolContext): Promise<CallToolResult>;
  /** Every resource the server lists. */
  listResources(): Promise<Resource[]>;
  /** Every resource template the server lists. */
  listResourceTemplates(): Promise<ResourceTemplate[]>;
  readResource(uri: string): Promise<ReadResourceResult>;
  /** Calls `onUpdate` when the resource changes, until the returned function is called. */
  subscribe(uri: string, onUpdate: (uri: string) => void): Promise<() => Promise<void>>;
  listPrompts(): Promise<Prompt[]>;
  getPrompt(name: string, args?: Record<string, string>): Promise<GetPromptResult>;
  /** Called when the server says its tool list changed (`notifications/tools/list_changed`). */
  onToolsChanged?: () => void;
  close(): Promise<void>;
}

const STDERR_TAIL = 2000;
const STREAM_LOST = /SSE stream disconnected|Maximum reconnection attempts/;

/**
 * Connects to an MCP server, declaring sampling, elicitation and roots (unless turned off) and
 * signing in when it answers 401 and `auth` says how. The first connection failing is a
 * configuration problem and throws a `ConfigError`. Later, when the server dies (process exit,
 * HTTP failure), the call in flight fails with a readable message and the next call restarts it,
 * at most `maxRestarts` times.
 */
export async function mcpConnection(options: McpServerOptions): Promise<McpConnection> {
  const name = mcpServerName(options);
  const maxRestarts = options.maxRestarts ?? 3;
  const timeout = options.timeoutMs ?? 60_000;
  const sdk = await loadMcpClientSdk();
  const auth =
    options.url !== undefined && options.auth ? mcpAuthSession(sdk, options.auth, new URL(options.url)) : undefined;
  const active: ActiveCalls = [];
  const watchers = new Map<string, Set<(uri: string) => void>>();
  let current: { client: Client; transport: Transport } | undefined;
  let pending: Promise<Client> | undefined;
  let restarts = 0;
  let closed = false;
  let stderrTail = '';

  async function open(): Promise<Client> {
    for (let attempt = 0; ; attempt++) {
      stderrTail = '';
      const client = new sdk.Client(
        { name: 'thinkflow', version: '0.1.0' },
        { capabilities: clientCapabilities(options) },
      );
      answerServerRequests(sdk, client, { server: name, answers: options, active });
      listenToServer(client);
      const transport = makeTransport(sdk, options, auth, (text) => {
        stderrTail = (stderrTail + text).slice(-STDERR_TAIL);
      });
      client.onclose = () => {
        if (current?.client === client) current = undefined;
      };
      // A streamable HTTP response stream cut by a dying server leaves its request pending forever
      // (the SDK only resumes streams that sent event ids); closing the client fails it now.
      client.onerror = (error) => {
        if (STREAM_LOST.test(error.message)) void drop(client);
      };
      try {
        await client.connect(transport);
      } catch (error) {
        await client.close().catch(() => undefined);
        // A browser sign-in: wait for its code, trade it for tokens, and connect again with them.
        if (attempt < 2 && (await finishSignIn(error, transport))) continue;
        throw error;
      }
      if (closed) {
        await client.close();
        throw gone(name, 'the tool set was closed');
      }
      current = { client, transport };
      return client;
    }
  }

  async function finishSignIn(error: unknown, transport: Transport): Promise<boolean> {
    if (!(error instanceof sdk.UnauthorizedError) || !auth?.waitForCode) return false;
    const code = await auth.waitForCode();
    await (transport as StreamableHTTPClientTransport).finishAuth(code);
    return true;
  }

  function listenToServer(client: Client): void {
    const { types } = sdk;
    client.setNotificationHandler(types.ToolListChangedNotificationSchema, () => connection.onToolsChanged?.());
    client.setNotificationHandler(types.ResourceUpdatedNotificationSchema, ({ params: { uri } }) => {
      for (const watcher of watchers.get(uri) ?? []) watcher(uri);
    });
    client.setNotificationHandler(types.LoggingMessageNotificationSchema, ({ params }) => {
      const text = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
      const ctx = active[active.length - 1];
      if (ctx?.log) void ctx.log(params.level, text);
      else if (params.level !== 'debug') ctx?.logger.info(`[${name}] ${text}`);
    });
  }

  function ensure(): Promise<Client> {
    if (closed) return Promise.reject(gone(name, 'the tool set was closed'));
    if (current) return Promise.resolve(current.client);
    if (pending) return pending;
    if (restarts >= maxRestarts) {
      return Promise.reject(gone(name, `it stopped and was restarted ${restarts} times already; thinkflow gives up`));
    }
    restarts += 1;
    pending = open()
      .catch((error: unknown) => {
        throw toolError(`MCP server "${name}" stopped and could not be restarted: ${reason(error, stderrTail)}`, error);
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  }

  async function drop(client: Client): Promise<void> {
    if (current?.client === client) current = undefined;
    await client.close().catch(() => undefined);
  }

  /** Runs a request; a step-up sign-in (403 insufficient_scope) in the middle is finished and the request sent again. */
  async function request<T>(run: (client: Client) => Promise<T>): Promise<T> {
    const client = await ensure();
    try {
      return await run(client);
    } catch (error) {
      if (!current || !(await finishSignIn(error, current.transport))) throw error;
      return run(client);
    }
  }

  async function all<T, K extends string>(
    list: (client: Client, cursor?: string) => Promise<{ nextCursor?: string } & Record<K, T[]>>,
    key: K,
  ): Promise<T[]> {
    return request(async (client) => {
      const items: T[] = [];
      let cursor: string | undefined;
      do {
        const page = await list(client, cursor);
        items.push(...page[key]);
        cursor = page.nextCursor;
      } while (cursor);
      return items;
    });
  }

  try {
    await open();
  } catch (error) {
    await auth?.close();
    const status = (error as { code?: unknown }).code;
    const unauthorized = status === 401 || error instanceof sdk.UnauthorizedError;
    throw new ConfigError({
      message: unauthorized
        ? options.auth
          ? `Could not sign in to MCP server "${name}": ${reason(error, stderrTail)}. Check the auth options (client id, secret or key, scopes).`
          : unauthorizedHelp(name)
        : `Could not connect to MCP server "${name}": ${reason(error, stderrTail)}. Check the command or URL.`,
      cause: error,
    });
  }

  const connection: McpConnection = {
    name,
    listTools: () => all((client, cursor) => client.listTools(cursor ? { cursor } : undefined, { timeout }), 'tools'),
    listResources: () =>
      all((client, cursor) => client.listResources(cursor ? { cursor } : undefined, { timeout }), 'resources'),
    listResourceTemplates: () =>
      all(
        (client, cursor) => client.listResourceTemplates(cursor ? { cursor } : undefined, { timeout }),
        'resourceTemplates',
      ),
    readResource: (uri) => request((client) => client.readResource({ uri }, { timeout })),
    async subscribe(uri, onUpdate) {
      const set = watchers.get(uri) ?? new Set();
      watchers.set(uri, set);
      set.add(onUpdate);
      await request((client) => client.subscribeResource({ uri }, { timeout }));
      return async () => {
        set.delete(onUpdate);
        if (set.size === 0) await request((client) => client.unsubscribeResource({ uri }, { timeout }));
      };
    },
    listPrompts: () =>
      all((client, cursor) => client.listPrompts(cursor ? { cursor } : undefined, { timeout }), 'prompts'),
    getPrompt: (prompt, args) => request((client) => client.getPrompt({ name: prompt, arguments: args }, { timeout })),
    async callTool(tool, input, ctx) {
      if (ctx) active.push(ctx);
      try {
        return (await request((client) =>
          client.callTool({ name: tool, arguments: input }, undefined, {
            signal: ctx?.signal,
            timeout,
            resetTimeoutOnProgress: true,
            onprogress: ctx ? (progress) => reportProgress(ctx, tool, progress) : undefined,
          }),
        )) as CallToolResult;
      } catch (error) {
        if (ctx?.signal.aborted) throw error;
        if (error instanceof sdk.McpError && error.code === sdk.ErrorCode.RequestTimeout) {
          throw toolError(`MCP tool "${tool}" timed out after ${timeout} ms without progress.`, error);
        }
        if (isConnectionFailure(sdk, error)) {
          if (current) await drop(current.client);
          const again = restarts < maxRestarts ? 'It will be restarted on the next call.' : 'It will not be restarted.';
          throw toolError(
            `MCP server "${name}" stopped during the call to "${tool}": ${reason(error, stderrTail)}. ${again}`,
            error,
          );
        }
        throw toolError(`MCP tool "${tool}" failed: ${errorMessage(error)}`, error);
      } finally {
        if (ctx) active.splice(active.lastIndexOf(ctx), 1);
      }
    },
    async close() {
      closed = true;
      const open = current;
      current = undefined;
      await open?.client.close().catch(() => undefined);
      await auth?.close();
    },
  };
  return connection;
}

/** Progress becomes a `tool_progress` event in the calling run, and goes on to this tool's own MCP caller. */
function reportProgress(
  ctx: ToolContext,
  tool: string,
  progress: { progress: number; total?: number; message?: string },
) {
  ctx.parent?.emit({
    type: 'tool_progress',
    runId: ctx.parent.runId,
    ts: Date.now(),
    callId: ctx.callId,
    tool,
    progress: progress.progress,
    total: progress.total,
    message: progress.message,
  });
  void ctx.progress?.(progress.progress, progress.total, progress.message)?.catch(() => undefined);
}

function makeTransport(
  sdk: McpClientSdk,
  options: McpServerOptions,
  auth: McpAuthSession | undefined,
  onStderr: (text: string) => void,
): Transport {
  if (options.command !== undefined) {
    const transport = new sdk.StdioClientTransport({
      command: options.command,
      args: options.args,
      env: { ...sdk.getDefaultEnvironment(), ...options.env },
      cwd: options.cwd,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => onStderr(chunk.toString('utf8')));
    return transport;
  }
  return new sdk.StreamableHTTPClientTransport(new URL(options.url), {
    requestInit: options.headers ? { headers: options.headers } : undefined,
    authProvider: auth?.provider,
    fetch: auth?.fetch,
  });
}

/** Protocol errors (bad params, unknown tool) keep the link; anything else means the server is unreachable. */
function isConnectionFailure(sdk: McpClientSdk, error: unknown): boolean {
  return !(error instanceof sdk.McpError) || error.code === sdk.ErrorCode.ConnectionClosed;
}

function reason(error: unknown, stderrTail: string): string {
  const last = stderrTail.trim().split('\n').slice(-3).join(' | ');
  return last ? `${errorMessage(error)} (server stderr: ${last})` : errorMessage(error);
}

function toolError(message: string, cause?: unknown): ThinkflowError {
  return new ThinkflowError({ code: 'tool', message, cause });
}

function gone(name: string, why: string): ThinkflowError {
  return toolError(`MCP server "${name}" is gone (${why}). Its tools are unavailable; continue without them.`);
}
