import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedFailures, ROOT, runConformance } from '../../helpers/mcp-conformance.js';

// Needs `npm run build`: the example imports `thinkflow/mcp` as a user would.
describe('the MCP conformance suite against a serveMcp server (examples/mcp-conformance/server.ts)', () => {
  let server: ChildProcess;
  let url: string;

  beforeAll(async () => {
    server = spawn(process.execPath, ['--import', 'tsx', 'examples/mcp-conformance/server.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    url = await new Promise<string>((resolve, reject) => {
      server.stdout?.on('data', (chunk: Buffer) => {
        const line = /http:\/\/\S+/.exec(chunk.toString('utf8'));
        if (line) resolve(line[0]);
      });
      server.once('exit', (code) => reject(new Error(`the example server exited (${code})`)));
    });
  }, 60_000);
  afterAll(() => {
    server?.kill();
  });

  it('passes every active server scenario except the listed deliberate gaps', { timeout: 300_000 }, async () => {
    const out = mkdtempSync(join(tmpdir(), 'mcp-conformance-server-'));
    const run = await runConformance(['server', '--url', url], out);
    const failing = run.scenarios.filter((s) => s.failed > 0);
    console.log(
      `MCP conformance, server: ${run.scenarios.length - failing.length}/${run.scenarios.length} scenarios pass\n` +
        failing.map((s) => `  ${s.scenario}: ${s.failures.join('; ')}`).join('\n'),
    );
    expect(run.scenarios.length).toBeGreaterThanOrEqual(30);
    expect(failing.map((s) => s.scenario).sort()).toEqual(expectedFailures('server').sort());
    expect(run.code, run.output.slice(-3000)).toBe(0);
  });
});
