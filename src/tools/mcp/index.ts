export type {
  ActiveCalls,
  McpClientAnswers,
  McpRoot,
  McpSamplingOptions,
} from './mcp-client-requests.js';
export { type McpConnection, mcpConnection } from './mcp-connection.js';
export { mcpContentOutput, mcpContentText } from './mcp-content-text.js';
export { type McpAuth, unauthorizedHelp } from './mcp-oauth.js';
export {
  type McpCommonOptions,
  type McpHttpOptions,
  type McpServerOptions,
  type McpStdioOptions,
  mcpServerName,
} from './mcp-server-options.js';
export { type McpToolSet, mcpTools } from './mcp-tools.js';
