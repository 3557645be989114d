/**
 * `thinkflow/mcp`: MCP both ways: tools from MCP servers (`mcpTools`) and thinkflow tools served over
 * MCP (`serveMcp`, `mcpFetchHandler`, `createMcpServer`), with resources, resource templates and
 * prompts. Needs the optional peer `@modelcontextprotocol/sdk`.
 */
export {
  AudioPart,
  createMcpServer,
  type McpCatalog,
  type McpCompleter,
  McpContentPart,
  type McpFetchHandler,
  type McpFetchHandlerOptions,
  type McpHttpServing,
  type McpPrompt,
  type McpPromptMessage,
  type McpResource,
  type McpResourceBody,
  type McpResourceTemplate,
  type McpServerInfo,
  type McpServing,
  type McpSessionLimits,
  type McpTransportOptions,
  mcpFetchHandler,
  ResourceLinkPart,
  ResourcePart,
  type ServeMcpOptions,
  serveMcp,
} from '../server/index.js';
export type {
  McpAuth,
  McpClientAnswers,
  McpConnection,
  McpHttpOptions,
  McpRoot,
  McpSamplingOptions,
  McpServerOptions,
  McpStdioOptions,
  McpToolSet,
} from '../tools/node.js';
export { mcpTools } from '../tools/node.js';
