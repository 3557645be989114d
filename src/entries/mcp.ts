/**
 * `thinkflow/mcp`: MCP both ways: tools from MCP servers (`mcpTools`) and thinkflow tools served over
 * MCP (`serveMcp`, `mcpFetchHandler`, `createMcpServer`). Needs the optional peer
 * `@modelcontextprotocol/sdk`.
 */
export {
  createMcpServer,
  type McpFetchHandlerOptions,
  type McpHttpServing,
  type McpServerInfo,
  type McpServing,
  type McpTransportOptions,
  mcpFetchHandler,
  type ServeMcpOptions,
  serveMcp,
} from '../server/index.js';
export {
  type McpHttpOptions,
  type McpServerOptions,
  type McpStdioOptions,
  type McpToolSet,
  mcpTools,
} from '../tools/index.js';
