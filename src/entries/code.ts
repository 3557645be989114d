/**
 * `thinkflow/code`: code mode. `codeMode(tools)` is one tool, `run_code`, that runs a JavaScript
 * program calling the tools in a QuickJS sandbox (the optional peer `quickjs-emscripten`), every call
 * through the run's executor. `codeAct()` is the code protocol (CodeAct) for `new Agent({ protocol: codeAct() })`:
 * every reply is a program.
 */
export {
  type CodeActProtocol,
  type CodeBudgets,
  type CodeModeOptions,
  codeAct,
  codeMode,
  DEFAULT_BUDGETS,
  MAX_STACK_BYTES,
  type QuickJsModuleSource,
  type QuickJsSandboxOptions,
  quickJsSandbox,
  type Sandbox,
  type SandboxErrorKind,
  type SandboxHost,
  type SandboxOutcome,
  type SandboxSession,
} from '../code/index.js';
export { toolDeclarations } from '../protocols/index.js';
