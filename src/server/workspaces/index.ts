/** Workspaces per run: the config's `workspace:`, opening a run's files where its log says, retention. */

export { rewindRunWorkspace } from './rewind-run-workspace.js';
export { openRunWorkspace, withRunWorkspace } from './run-workspace.js';
export { sweepWorkspaces } from './sweep-workspaces.js';
export { sharesThreadWorkspace, threadFolder } from './thread-folder.js';
export { previousThreadRun, threadBusyMessage, unfinishedThreadRun } from './thread-runs.js';
export { type RunWorkspaceHistory, readAllEvents, runWorkspaceHistory, stepsOf } from './workspace-history.js';
export { WorkspaceSpec } from './workspace-spec.js';
