import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { ConfigError, errorMessage, ThinkflowError } from '../../core/index.js';
import { loadMcpClientSdk, type McpClientSdk } from './mcp-client-sdk.js';
import { type McpServerOptions, mcpServerName } from './mcp-server-options.js';

/** One live (or restartable) link to an MCP server. */
export interface McpConnection {
  readonly name: string;
  /** Every tool the server lists (all pages). */
  listTools(): Promise<McpTool[]>;
  /** Calls a tool. Throws a `ThinkflowError` (code `tool`) whose message is fit for the model to read. */
  callTool(tool: string, input: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult>;
  close(): Promise<void>;
}

const STDERR_TAIL = 2000;
const STREAM_LOST = /SSE stream disconnected|Maximum reconnection attempts/;

/**
 * Connects to an MCP server. The first connection failing is a configuration problem and throws a
 * `ConfigError`. Later, when the server dies (process exit, HTTP failure), the call in flight fails
 * with a readable message and the next call restarts it, at most `maxRestarts` times.
 */
export async function mcpConnection(options: McpServerOptions): Promise<McpConnection> {
  const name = mcpServerName(options);
  const maxRestarts = options.maxRestarts ?? 3;
  const timeout = options.timeoutMs ?? 60_000;
  const sdk = await loadMcpClientSdk();
  let current: Client | undefined;
  let pending: Promise<Client> | undefined;
  let restarts = 0;
  let closed = false;
  let stderrTail = '';

  async function open(): Promise<Client> {
    stderrTail = '';
    const client = new sdk.Client({ name: 'thinkflow', version: '0.1.0' });
    const transport = makeTransport(sdk, options, (text) => {
      stderrTail = (stderrTail + text).slice(-STDERR_TAIL);
    });
    client.onclose = () => {
      if (current === client) current = undefined;
    };
    // A streamable HTTP response stream cut by a dying server leaves its request pending forever
    // (the SDK only resumes streams that sent event ids); closing the client fails it now.
    client.onerror = (error) => {
      if (STREAM_LOST.test(error.message)) void drop(client);
    };
    await client.connect(transport);
    if (closed) {
      await client.close();
      throw gone(name, 'the tool set was closed');
    }
    current = client;
    return client;
  }

  function ensure(): Promise<Client> {
    if (closed) return Promise.reject(gone(name, 'the tool set was closed'));
    if (current) return Promise.resolve(current);
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
    if (current === client) current = undefined;
    await client.close().catch(() => undefined);
  }

  try {
    await open();
  } catch (error) {
    throw new ConfigError({
      message: `Could not connect to MCP server "${name}": ${reason(error, stderrTail)}. Check the command or URL.`,
      cause: error,
    });
  }

  return {
    name,
    async listTools() {
      const client = await ensure();
      const tools: McpTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    },
    async callTool(tool, input, signal) {
      const client = await ensure();
      try {
        return (await client.callTool({ name: tool, arguments: input }, undefined, {
          signal,
          timeout,
        })) as CallToolResult;
      } catch (error) {
        if (signal?.aborted) throw error;
        if (error instanceof sdk.McpError && error.code === sdk.ErrorCode.RequestTimeout) {
          throw toolError(`MCP tool "${tool}" timed out after ${timeout} ms.`, error);
        }
        if (isConnectionFailure(sdk, error)) {
          await drop(client);
          const again = restarts < maxRestarts ? 'It will be restarted on the next call.' : 'It will not be restarted.';
          throw toolError(
            `MCP server "${name}" stopped during the call to "${tool}": ${reason(error, stderrTail)}. ${again}`,
            error,
          );
        }
        throw toolError(`MCP tool "${tool}" failed: ${errorMessage(error)}`, error);
      }
    },
    async close() {
      closed = true;
      const client = current;
      current = undefined;
      await client?.close().catch(() => undefined);
    },
  };
}

function makeTransport(sdk: McpClientSdk, options: McpServerOptions, onStderr: (text: string) => void): Transport {
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
