export { createMcpServer, type McpServerInfo } from './create-mcp-server.js';
export { type McpFetchHandlerOptions, mcpFetchHandler } from './mcp-fetch-handler.js';
export {
  type McpHttpServing,
  type McpServing,
  type McpTransportOptions,
  type ServeMcpOptions,
  serveMcp,
} from './serve-mcp.js';
