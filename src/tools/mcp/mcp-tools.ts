import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { redactText, ThinkflowError } from '../../core/index.js';
import { jsonSchemaTool } from '../json-schema-tool.js';
import { type AnyTool, defineTool } from '../tool.js';
import type { ToolRegistry } from '../tool-registry.js';
import { type JsonSchemaCheck, jsonSchemaValidator } from './json-schema-validator.js';
import { loadMcpClientSdk } from './mcp-client-sdk.js';
import { type McpConnection, mcpConnection } from './mcp-connection.js';
import { mcpContentOutput, mcpContentText } from './mcp-content-text.js';
import type { McpServerOptions } from './mcp-server-options.js';

/** The tools of one MCP server, and the way to let the server go. */
export interface McpToolSet {
  /**
   * Thinkflow tools, one per tool the server listed. Each call returns the result as observation
   * text, or as content parts when it holds images, audio or binary resources. The array is
   * updated in place when the server's tool list changes.
   */
  readonly tools: AnyTool[];
  /** The server's name as used in messages. */
  readonly server: string;
  /** The live connection: resources (`listResources`, `readResource`, `subscribe`) and prompts (`listPrompts`, `getPrompt`). */
  readonly connection: McpConnection;
  /** What the set left out or changed, also given to `onWarning`. */
  readonly warnings: string[];
  /**
   * Registers the tools in `registry` (an agent's `agent.tools`) and keeps them in step with the server:
   * on each `list_changed` refresh, tools gone are unregistered and new or changed ones registered, so
   * the agent's tool routing index follows. Returns a function that stops following.
   */
  attach(registry: ToolRegistry): () => void;
  /** Stops the server process (stdio) or drops the HTTP session. Safe to call twice. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Connects to an MCP server over stdio (`command`) or streamable HTTP (`url`) and exposes its tools
 * as thinkflow tools, their JSON Schemas passed through and enforced in full (JSON Schema 2020-12,
 * with ajv). The client declares sampling (answered by
 * the run's model behind its approval hook), elicitation (answered through the run's `ask` channel,
 * else `elicit`) and roots; progress restarts a call's timeout and becomes `tool_progress` events;
 * a changed tool list is fetched again. Tool errors (`isError`), a server that crashes mid-call and
 * a server that cannot be restarted all become failures the model reads as an observation; the next
 * call after a crash restarts the server (at most `maxRestarts` times). Throws a `ConfigError` only
 * when the first connection fails (a 401 names the `auth` options).
 *
 * @example
 * const fs = await mcpTools({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] });
 * const agent = new Agent({ model, tools: fs.tools });
 * try { await agent.run('List the files here.'); } finally { await fs.close(); }
 */
export async function mcpTools(options: McpServerOptions): Promise<McpToolSet> {
  // The SDK first, so a missing SDK is the error named, then its validator (ajv), then the server.
  await loadMcpClientSdk();
  const compile = await jsonSchemaValidator();
  const connection = await mcpConnection(options);
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    if (options.onWarning) options.onWarning(message);
    else process.stderr.write(`thinkflow: ${redactText(message)}\n`);
  };
  const tools: AnyTool[] = [];
  const attached = new Set<ToolRegistry>();
  const syncInto = (registry: ToolRegistry, before: readonly string[]) => {
    for (const name of before) if (!tools.some((t) => t.name === name)) registry.unregister(name);
    for (const tool of tools) registry.register(tool, { replace: true });
  };
  const refresh = async () => {
    const before = tools.map((t) => t.name);
    const listed = await connection.listTools();
    tools.splice(0, tools.length, ...toTools(listed, { connection, options, warn, compile }));
    if (options.resourceTool) tools.push(readResourceTool(connection, options.prefix ?? ''));
    for (const registry of attached) syncInto(registry, before);
  };
  const attach = (registry: ToolRegistry) => {
    attached.add(registry);
    syncInto(registry, []);
    return () => void attached.delete(registry);
  };
  try {
    await refresh();
  } catch (error) {
    await connection.close();
    throw error;
  }
  connection.onToolsChanged = () => {
    refresh().catch((error: unknown) =>
      warn(`Could not refresh the tools of MCP server "${connection.name}": ${error}`),
    );
  };
  const close = () => connection.close();
  return { tools, server: connection.name, connection, warnings, attach, close, [Symbol.asyncDispose]: close };
}

interface ToolsContext {
  connection: McpConnection;
  options: McpServerOptions;
  warn: (message: string) => void;
  compile: (schema: McpTool['inputSchema']) => JsonSchemaCheck;
}

function toTools(listed: McpTool[], { connection, options, warn, compile }: ToolsContext): AnyTool[] {
  const taken = new Set<string>();
  const tools: AnyTool[] = [];
  for (const remote of listed) {
    // thinkflow calls tools and waits; a tool that only runs as a task (SEP-1686) cannot be called that way.
    if (remote.execution?.taskSupport === 'required') {
      warn(
        `MCP tool "${remote.name}" of "${connection.name}" runs only as a task, which thinkflow does not call; it is left out.`,
      );
      continue;
    }
    const name = uniqueName(`${options.prefix ?? ''}${remote.name}`, taken);
    tools.push(
      jsonSchemaTool({
        name,
        title: remote.title ?? remote.annotations?.title,
        description: remote.description ?? remote.title ?? remote.name,
        parameters: remote.inputSchema,
        validate: compile(remote.inputSchema),
        annotations: remote.annotations,
        idempotent: remote.annotations?.idempotentHint,
        async run(input, ctx) {
          const result = await connection.callTool(remote.name, input, ctx);
          if (result.isError) {
            const text = mcpContentText(result);
            throw new ThinkflowError({ code: 'tool', message: text || `MCP tool "${remote.name}" reported an error.` });
          }
          return mcpContentOutput(result);
        },
      }),
    );
  }
  return tools;
}

/** The opt-in tool that lets the model follow a resource link a tool returned. */
function readResourceTool(connection: McpConnection, prefix: string): AnyTool {
  return defineTool({
    name: uniqueName(`${prefix}read_resource`, new Set()),
    description: `Reads a resource of the MCP server "${connection.name}" by its URI (as a tool result linked it: [resource: URI]).`,
    input: z.object({ uri: z.string().describe('The resource URI, e.g. file:///notes/today.md') }),
    idempotent: true,
    annotations: { readOnlyHint: true },
    async run({ uri }) {
      const { contents } = await connection.readResource(uri);
      return mcpContentOutput({
        content: contents.map((resource) => ({ type: 'resource' as const, resource })),
      });
    },
  });
}

/** Tool names allow what MCP allows (any script, digits, `_ - . /`, max 128); anything else becomes `_`. */
function uniqueName(raw: string, taken: Set<string>): string {
  const base = raw.replace(/[^\p{L}\p{M}\p{N}_\-./]/gu, '_').slice(0, 128) || 'tool';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base.slice(0, 124)}_${n}`;
  taken.add(name);
  return name;
}
