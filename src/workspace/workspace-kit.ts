import type { AnyTool } from '../tools/index.js';
import type { ToolLanguage } from './tool-texts.js';
import type { Workspace } from './workspace.js';
import type { WorkspaceToolsOptions } from './workspace-tools.js';

/** What an agent adds for its workspace: the tools the model works with and a block of instructions. */
export interface WorkspaceKit {
  tools(workspace: Workspace, options: WorkspaceToolsOptions): AnyTool[];
  prompt(workspace: Workspace, language: ToolLanguage): string;
}

// Set by `virtualWorkspace()` and `sandboxWorkspace()`, so an agent without a workspace bundles none of the
// workspace tools (their texts in two languages and the shell parser): `new Agent()` only reads this.
let provided: WorkspaceKit | undefined;

/** Called by the workspace factories: from then on `new Agent({ workspace })` adds these tools and instructions. */
export function provideWorkspaceKit(kit: WorkspaceKit): void {
  provided = kit;
}

/**
 * The workspace tools and instructions for `new Agent({ workspace })`, once a factory (or an agent given a
 * Workspace of its own, which loads them) handed them over.
 */
export function workspaceKit(): WorkspaceKit | undefined {
  return provided;
}
