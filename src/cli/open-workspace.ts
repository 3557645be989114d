import { sandboxWorkspace, virtualWorkspace, type Workspace } from '../workspace/index.js';

/** `--workspace memory` is an in-memory workspace; any other value is a folder for the Linux sandbox. */
export function openWorkspace(spec: string): Promise<Workspace> {
  return spec === 'memory' ? virtualWorkspace() : sandboxWorkspace({ dir: spec });
}
