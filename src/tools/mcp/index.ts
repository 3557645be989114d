export { type McpConnection, mcpConnection } from './mcp-connection.js';
export { mcpContentText } from './mcp-content-text.js';
export {
  type McpCommonOptions,
  type McpHttpOptions,
  type McpServerOptions,
  type McpStdioOptions,
  mcpServerName,
} from './mcp-server-options.js';
export { type McpToolSet, mcpTools } from './mcp-tools.js';
