import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { ThinkflowError } from '../../core/index.js';
import { jsonSchemaTool } from '../json-schema-tool.js';
import type { AnyTool } from '../tool.js';
import { mcpConnection } from './mcp-connection.js';
import { mcpContentText } from './mcp-content-text.js';
import type { McpServerOptions } from './mcp-server-options.js';

/** The tools of one MCP server, and the way to let the server go. */
export interface McpToolSet {
  /** Thinkflow tools, one per tool the server listed. Each call returns the result as observation text. */
  readonly tools: AnyTool[];
  /** The server's name as used in messages. */
  readonly server: string;
  /** Stops the server process (stdio) or drops the HTTP session. Safe to call twice. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Connects to an MCP server over stdio (`command`) or streamable HTTP (`url`) and exposes its tools
 * as thinkflow tools, their JSON Schemas passed through. Tool errors (`isError`), a server that
 * crashes mid-call and a server that cannot be restarted all become failures the model reads as an
 * observation; the next call after a crash restarts the server (at most `maxRestarts` times).
 * Throws a `ConfigError` only when the first connection fails.
 *
 * @example
 * const fs = await mcpTools({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] });
 * const agent = new Agent({ model, tools: fs.tools });
 * try { await agent.run('List the files here.'); } finally { await fs.close(); }
 */
export async function mcpTools(options: McpServerOptions): Promise<McpToolSet> {
  const connection = await mcpConnection(options);
  let listed: McpTool[];
  try {
    listed = await connection.listTools();
  } catch (error) {
    await connection.close();
    throw error;
  }
  const taken = new Set<string>();
  const tools = listed.map((remote) => {
    const name = uniqueName(`${options.prefix ?? ''}${remote.name}`, taken);
    return jsonSchemaTool({
      name,
      description: remote.description ?? remote.title ?? remote.name,
      parameters: remote.inputSchema,
      idempotent: remote.annotations?.idempotentHint,
      async run(input, ctx) {
        const result = await connection.callTool(remote.name, input, ctx.signal);
        const text = mcpContentText(result);
        if (result.isError) {
          throw new ThinkflowError({ code: 'tool', message: text || `MCP tool "${remote.name}" reported an error.` });
        }
        return text;
      },
    });
  });
  const close = () => connection.close();
  return { tools, server: connection.name, close, [Symbol.asyncDispose]: close };
}

/** Thinkflow tool names allow letters, digits, `_` and `-` (max 64); MCP names may hold more. */
function uniqueName(raw: string, taken: Set<string>): string {
  const base = raw.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'tool';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base.slice(0, 60)}_${n}`;
  taken.add(name);
  return name;
}
