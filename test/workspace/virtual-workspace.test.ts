import { describe, expect, it } from 'vitest';
import { virtualWorkspace } from '../../src/workspace/index.js';
import { runWorkspaceContract } from './workspace.contract.js';

describe('virtualWorkspace', () => {
  runWorkspaceContract((files) => virtualWorkspace({ files, limits: { outputBytes: 4096 } }));

  it('sees nothing of the host: no host file, no host environment, no network', async () => {
    process.env.THINKFLOW_TEST_SECRET = 'sk-host-secret';
    const ws = await virtualWorkspace();
    try {
      const result = await ws.exec(
        'env; cat /etc/shadow /root/.bashrc /proc/self/root/etc/passwd; curl http://127.0.0.1:5432',
      );
      expect(result.stdout + result.stderr).not.toContain('sk-host-secret');
      expect(result.stdout).not.toMatch(/root:x:0:0/);
      expect(result.stderr).toMatch(/curl: command not found/);
    } finally {
      delete process.env.THINKFLOW_TEST_SECRET;
      await ws.dispose();
    }
  });
});
