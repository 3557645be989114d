import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedFailures, runConformance } from '../../helpers/mcp-conformance.js';

// Needs `npm run build`: the example imports `thinkflow/mcp` as a user would.
const CLIENT = `"${process.execPath}" --import tsx examples/mcp-conformance/client.ts`;

describe('the MCP conformance suite against an mcpTools client (examples/mcp-conformance/client.ts)', () => {
  it('passes every client scenario, the auth suite included, except the listed deliberate gaps', {
    timeout: 600_000,
  }, async () => {
    // sse-retry checks the reconnection delay against the server's `retry` (500 ms, ±200): it runs
    // alone, before the suite starts its ~25 clients at once on a busy machine.
    const alone = await runConformance(
      ['client', '--command', CLIENT, '--scenario', 'sse-retry'],
      mkdtempSync(join(tmpdir(), 'mcp-conformance-retry-')),
      false,
    );
    const suite = await runConformance(
      ['client', '--command', CLIENT, '--suite', 'all', '--timeout', '120000'],
      mkdtempSync(join(tmpdir(), 'mcp-conformance-client-')),
      false,
    );
    let scenarios = [...alone.scenarios, ...suite.scenarios.filter((s) => s.scenario !== 'sse-retry')];
    // The suite starts every client at once; on a loaded 2-core machine a client can lose a socket
    // (ECONNRESET) or its clock. A scenario that failed unexpectedly runs once more, alone: a real
    // regression fails both times.
    const expected = new Set(expectedFailures('client'));
    for (const failed of scenarios.filter((s) => s.failed > 0 && !expected.has(s.scenario))) {
      const again = await runConformance(
        ['client', '--command', CLIENT, '--scenario', failed.scenario],
        mkdtempSync(join(tmpdir(), 'mcp-conformance-again-')),
        false,
      );
      console.log(`re-ran ${failed.scenario} alone: ${failed.failures.join('; ')}`);
      scenarios = scenarios.map((s) => (s.scenario === failed.scenario ? (again.scenarios[0] ?? s) : s));
    }
    const failing = scenarios.filter((s) => s.failed > 0);
    console.log(
      `MCP conformance, client: ${scenarios.length - failing.length}/${scenarios.length} scenarios pass\n` +
        failing.map((s) => `  ${s.scenario}: ${s.failures.join('; ')}`).join('\n'),
    );
    expect(scenarios.length).toBeGreaterThanOrEqual(26);
    expect(failing.map((s) => s.scenario).sort()).toEqual(expectedFailures('client').sort());
  });
});
