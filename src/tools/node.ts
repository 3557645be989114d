/**
 * tools/'s Node face: the built-in kits that read and write files, open sockets or start processes, and
 * MCP clients (stdio servers are processes). index.ts is the part that runs on every runtime.
 */
export {
  builtinTools,
  chartTools,
  dataTools,
  fileTools,
  type HttpGetOptions,
  httpGetTool,
  httpTools,
  isInside,
  type ResolvedPath,
  resolveInRoot,
  type SearchDocumentsOptions,
  searchDocumentsTool,
  searchTools,
} from './builtins/node.js';
export { type KitDefaults, toolsFromKits, withModelDefaults } from './builtins/tool-kits.js';
export {
  type McpAuth,
  type McpClientAnswers,
  type McpCommonOptions,
  type McpConnection,
  type McpHttpOptions,
  type McpRoot,
  type McpSamplingOptions,
  type McpServerOptions,
  type McpStdioOptions,
  type McpToolSet,
  mcpTools,
} from './mcp/index.js';
