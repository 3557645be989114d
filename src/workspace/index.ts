export type { WorkspacePayload } from '../core/index.js';
export { type CommandPolicy, decideCommand, matches, type PolicyDecision } from './command-policy.js';
export { cutMarker, cutText, outputCollector } from './cut-output.js';
export { globPattern } from './glob-pattern.js';
export { bwrapArgs, SANDBOX_ROOT } from './sandbox-args.js';
export { hostAllowed, isLocalAddress, type SandboxNetwork } from './sandbox-network.js';
export { type SandboxWorkspaceOptions, sandboxWorkspace } from './sandbox-workspace.js';
export { type ParsedScript, parseScript, type SimpleCommand } from './shell-commands.js';
export { type TodoItem, todosTool } from './todos-tool.js';
export { TOOL_TEXTS, type ToolLanguage } from './tool-texts.js';
export { VIRTUAL_ROOT, type VirtualWorkspaceOptions, virtualWorkspace } from './virtual-workspace.js';
export {
  DEFAULT_LIMITS,
  type ExecOptions,
  type ExecResult,
  resolveLimits,
  type Workspace,
  type WorkspaceDiff,
  type WorkspaceEntry,
  type WorkspaceLimits,
  type WorkspaceStat,
} from './workspace.js';
export {
  changeChain,
  finishedCalls,
  restorePoint,
  restoreWorkspace,
  rewindWorkspace,
  type WorkspaceHistory,
} from './workspace-history.js';
export {
  applyPayload,
  currentSnapshot,
  lineDiff,
  markRestored,
  type WorkspaceChangeEvent,
} from './workspace-journal.js';
export { provideWorkspaceKit, type WorkspaceKit, workspaceKit } from './workspace-kit.js';
export { relativePath, WorkspacePathError } from './workspace-path.js';
export { workspacePrompt } from './workspace-prompt.js';
export { workspaceSkills } from './workspace-skills.js';
export { formatExec, shellQuote, type WorkspaceToolsOptions, workspaceTools } from './workspace-tools.js';
