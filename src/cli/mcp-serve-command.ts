import type { Command } from 'commander';
import { ConfigError } from '../core/index.js';
import { envApiTokens, serveMcp } from '../server/index.js';
import type { AnyTool, BuiltinOptions } from '../tools/index.js';
import { builtinTools } from '../tools/node.js';
import { addExamples } from './global-options.js';
import { addSecurityFlags, type SecurityFlags } from './security-flags.js';
import { selectTools } from './select-tools.js';

/** Options of `thinkflow mcp-serve`. */
export interface McpServeCommandOptions extends SecurityFlags {
  tools: string;
  http?: string;
  host?: string;
  root?: string;
}

/** Builds the tools named in `--tools a,b` from the built-in kits; an unknown name is a ConfigError listing the kits. */
export function toolsFromKits(list: string, options: BuiltinOptions = {}): AnyTool[] {
  if (!list.split(',').some((name) => name.trim())) {
    throw new ConfigError({ message: `--tools needs at least one of: ${Object.keys(builtinTools).join(', ')}.` });
  }
  return selectTools(undefined, { tools: list }, options).tools;
}

/** `thinkflow mcp-serve --tools calculator [--http PORT]`: serves built-in tools over MCP. */
export async function mcpServe(options: McpServeCommandOptions): Promise<void> {
  const tools = toolsFromKits(options.tools, { root: options.root });
  if (options.http === undefined) {
    // stdout belongs to the protocol; the process lives as long as the client keeps stdin open.
    await serveMcp(tools, { transport: 'stdio' });
    return;
  }
  const port = Number.parseInt(options.http, 10);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError({ message: `--http needs a port number (0-65535), got "${options.http}".` });
  }
  // The same tokens as `thinkflow serve` takes (serveMcp adds THINKFLOW_API_TOKENS), checked by the same code.
  const tokens = options.token ?? [];
  const serving = await serveMcp(tools, {
    transport: 'http',
    port,
    host: options.host,
    auth: { tokens },
    security: { allowedHosts: options.allowedHost },
  });
  if (tokens.length === 0 && envApiTokens().every((token) => token.length === 0)) {
    process.stderr.write(
      'thinkflow mcp-serve: no token (--token or THINKFLOW_API_TOKENS): any local process can call these tools.\n',
    );
  }
  process.stderr.write(`thinkflow MCP server (${tools.map((t) => t.name).join(', ')}) on ${serving.url}\n`);
  const stop = () => void serving.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** Registers `thinkflow mcp-serve`. */
export function registerMcpServeCommand(program: Command): void {
  const command = program
    .command('mcp-serve')
    .description('Serve thinkflow tools to any MCP client, over stdio (default) or streamable HTTP.')
    .requiredOption('--tools <kits>', `comma-separated tool kits (${Object.keys(builtinTools).join(', ')})`)
    .option('--http <port>', 'serve streamable HTTP on this port (0 = any free port) instead of stdio')
    .option('--host <host>', 'interface to bind with --http', '127.0.0.1')
    .option('--root <dir>', 'folder the file tools are confined to (default: working directory)')
    .action((options: McpServeCommandOptions) => mcpServe(options));
  addSecurityFlags(command);
  addExamples(command, [
    ['the calculator for Claude Desktop or any stdio MCP client', 'thinkflow mcp-serve --tools calculator'],
    [
      'file tools over streamable HTTP, confined to a folder',
      'thinkflow mcp-serve --tools files --http 3001 --root ./docs --token "$(openssl rand -hex 32)"',
    ],
  ]);
}
