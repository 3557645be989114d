export { type CodeActProtocol, codeAct, protocolOption } from './code-act.js';
export { type CodeModeOptions, type CodeToolOptions, codeMode, codeTool } from './code-mode.js';
export type { QuickJsModuleSource } from './load-quickjs.js';
export { type QuickJsSandboxOptions, quickJsSandbox } from './quickjs-sandbox.js';
export { type ProgramErrorKind, type ProgramResult, runProgram } from './run-program.js';
export type {
  CodeBudgets,
  Sandbox,
  SandboxErrorKind,
  SandboxHost,
  SandboxOutcome,
  SandboxSession,
} from './sandbox.js';
export { DEFAULT_BUDGETS, MAX_STACK_BYTES } from './sandbox.js';
