export { type JsonSchemaToolOptions, jsonSchemaTool } from './json-schema-tool.js';
export {
  type AnyTool,
  type ApprovalRequest,
  type DefineToolOptions,
  defineTool,
  type Logger,
  type Tool,
  type ToolContext,
  type ToolInputIssue,
  type ToolInputResult,
} from './tool.js';
