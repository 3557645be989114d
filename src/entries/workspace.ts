/**
 * `thinkflow/workspace`: files and a shell for an agent. `virtualWorkspace()` runs bash over an in-memory
 * file system on every runtime (the optional peer `just-bash`); `sandboxWorkspace()` runs real processes
 * under bubblewrap on Linux. The `Workspace` contract is what the model's tools and the agent build on.
 */

export { type WorkspaceAgentOptions, workspaceAgent } from '../agent/index.js';
export {
  type CommandPolicy,
  changeChain,
  DEFAULT_LIMITS,
  decideCommand,
  type ExecOptions,
  type ExecResult,
  finishedCalls,
  type ParsedScript,
  type PolicyDecision,
  parseScript,
  relativePath,
  restorePoint,
  restoreWorkspace,
  rewindWorkspace,
  SANDBOX_ROOT,
  type SandboxNetwork,
  type SandboxWorkspaceOptions,
  type SimpleCommand,
  sandboxWorkspace,
  type TodoItem,
  type ToolLanguage,
  todosTool,
  VIRTUAL_ROOT,
  type VirtualWorkspaceOptions,
  virtualWorkspace,
  type Workspace,
  type WorkspaceChangeEvent,
  type WorkspaceDiff,
  type WorkspaceEntry,
  type WorkspaceHistory,
  type WorkspaceLimits,
  WorkspacePathError,
  type WorkspacePayload,
  type WorkspaceStat,
  type WorkspaceToolsOptions,
  workspacePrompt,
  workspaceSkills,
  workspaceTools,
} from '../workspace/index.js';
