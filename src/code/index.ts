export { type CodeModeOptions, type CodeToolOptions, codeMode, codeTool } from './code-mode.js';
export type { QuickJsModuleSource } from './load-quickjs.js';
export { type QuickJsSandboxOptions, quickJsSandbox } from './quickjs-sandbox.js';
export { type ProgramErrorKind, type ProgramResult, runProgram } from './run-program.js';
export {
  type CodeBudgets,
  DEFAULT_BUDGETS,
  MAX_STACK_BYTES,
  type Sandbox,
  type SandboxErrorKind,
  type SandboxHost,
  type SandboxOutcome,
  type SandboxSession,
} from './sandbox.js';
