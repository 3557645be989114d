/**
 * `thinkflow/tools`: the machinery around tools, for running them outside an agent or routing many: the
 * executor (validation, approval, timeouts, observation limits), the registry, the tool router, and the
 * types of a tool's context (logging, sampling, elicitation). `a2aAgentTool` calls a remote A2A agent.
 * `defineTool` and the quickstart's built-ins are in the root.
 */
export { createToolRouter, type ToolRouter } from '../agent/index.js';
export {
  type A2aAgentToolOptions,
  a2aAgentTool,
  type BuiltinOptions,
  coerceArguments,
  createToolExecutor,
  type ElicitRequest,
  type ElicitResult,
  type ExecuteOptions,
  type Logger,
  type LogLevel,
  type SampleMessage,
  type SampleRequest,
  type SampleResult,
  type ToolCallInput,
  type ToolEndRecord,
  type ToolErrorKind,
  type ToolExecution,
  type ToolExecutor,
  type ToolExecutorOptions,
  type ToolLookup,
  ToolRegistry,
  type ToolStartRecord,
  truncateObservation,
} from '../tools/index.js';
