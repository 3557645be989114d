import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { sandboxWorkspace } from '../../src/workspace/index.js';
import { runWorkspaceContract } from './workspace.contract.js';

const base = mkdtempSync(join(tmpdir(), 'thinkflow-sandbox-'));
// A root host runs the sandbox as nobody, who must reach the folder.
chmodSync(base, 0o755);
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

describe('sandboxWorkspace', () => {
  runWorkspaceContract(async (files) => {
    const ws = await sandboxWorkspace({ dir: join(base, `ws${++n}`), limits: { outputBytes: 4096 } });
    for (const [path, text] of Object.entries(files ?? {})) await ws.writeFile(path, text);
    return ws;
  });
});
