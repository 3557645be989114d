import type { WorkspaceKit } from './workspace-kit.js';
import { workspacePrompt } from './workspace-prompt.js';
import { workspaceTools } from './workspace-tools.js';

/** The workspace tools and instructions the factories hand to `new Agent({ workspace })`. */
export const AGENT_KIT: WorkspaceKit = { tools: workspaceTools, prompt: workspacePrompt };
