export { createMcpServer, type McpServerInfo } from './create-mcp-server.js';
export type {
  McpCatalog,
  McpCompleter,
  McpPrompt,
  McpPromptMessage,
  McpResource,
  McpResourceBody,
  McpResourceTemplate,
} from './mcp-catalog.js';
export { AudioPart, McpContentPart, ResourceLinkPart, ResourcePart } from './mcp-content.js';
export { type McpFetchHandler, type McpFetchHandlerOptions, mcpFetchHandler } from './mcp-fetch-handler.js';
export type { McpSessionLimits } from './mcp-sessions.js';
export {
  type McpHttpServing,
  type McpServing,
  type McpTransportOptions,
  type ServeMcpOptions,
  serveMcp,
} from './serve-mcp.js';
