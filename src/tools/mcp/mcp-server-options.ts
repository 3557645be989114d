import type { McpClientAnswers } from './mcp-client-requests.js';
import type { McpAuth } from './mcp-oauth.js';

/** Options shared by both ways of reaching an MCP server. */
export interface McpCommonOptions extends McpClientAnswers {
  /** A short name for messages (defaults to the command or the URL host). */
  name?: string;
  /** Prepended to every tool name (e.g. `fs_`), to keep tools of several servers apart. */
  prefix?: string;
  /** Restarts allowed after the server dies, over the whole life of the tool set (default 3). */
  maxRestarts?: number;
  /** Milliseconds one tool call may go without news before it fails (default 60 000); each progress report restarts it. */
  timeoutMs?: number;
  /** Offer a `<prefix>read_resource` tool so the model can read a resource a tool linked to (default false). */
  resourceTool?: boolean;
  /** Told about what the set leaves out or changes (e.g. task-only tools). Default: stderr. */
  onWarning?: (message: string) => void;
}

/** An MCP server started as a child process and spoken to over stdin/stdout. */
export interface McpStdioOptions extends McpCommonOptions {
  command: string;
  args?: string[];
  /** Extra environment variables; added to the SDK's safe default environment. */
  env?: Record<string, string>;
  cwd?: string;
  url?: never;
  auth?: never;
}

/** An MCP server reached over streamable HTTP. */
export interface McpHttpOptions extends McpCommonOptions {
  url: string | URL;
  /** Extra request headers (e.g. Authorization). Never echoed in messages. */
  headers?: Record<string, string>;
  /** How to sign in when the server answers 401: OAuth in a browser, or client credentials. */
  auth?: McpAuth;
  command?: never;
}

/** How to reach an MCP server: a command to spawn (stdio) or a URL (streamable HTTP). */
export type McpServerOptions = McpStdioOptions | McpHttpOptions;

/** A readable name for a server, used in observations. Never includes headers or env values. */
export function mcpServerName(options: McpServerOptions): string {
  if (options.name) return options.name;
  if (options.command !== undefined) return [options.command, ...(options.args ?? [])].join(' ');
  const url = new URL(options.url);
  return `${url.protocol}//${url.host}${url.pathname}`;
}
