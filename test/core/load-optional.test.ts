import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { assertPeers, OPTIONAL_FEATURES, packageName } from '../../src/core/index.js';
import { runCli } from '../cli/run-cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const HIDE = join(ROOT, 'test', 'helpers', 'hide-peers.mjs');
const EVERY_PEER = [...new Set(Object.values(OPTIONAL_FEATURES).flatMap((f) => f.packages.map(packageName)))];

/** Runs the fixture that reaches every optional peer, with `hidden` looking uninstalled. */
async function useEveryPeer(hidden: string[], attempts?: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', '--import', HIDE, join(ROOT, 'test', 'core', 'fixtures', 'use-every-peer.ts')],
    { cwd: ROOT, env: { ...process.env, HIDE_PEERS: hidden.join(','), ATTEMPTS: attempts?.join(',') } },
  );
  return JSON.parse(stdout);
}

const config = (message: string) => ({ name: 'ConfigError', code: 'config', message });

describe('optional peers', { timeout: 120_000 }, () => {
  it('every missing peer is a ConfigError naming the feature and the exact install command', async () => {
    const report = await useEveryPeer(EVERY_PEER);
    expect(report).toEqual({
      llamaCpp: config(
        'Local GGUF models (llamacpp:) need node-llama-cpp. Install it with: npm install node-llama-cpp@^3.21.1',
      ),
      dataTools: config(
        'The data tools need @duckdb/node-api. Install it with: npm install @duckdb/node-api@1.5.6-r.1',
      ),
      chartTools: config(
        'The chart tools need vega, vega-lite, vega-interpreter, @resvg/resvg-js and @duckdb/node-api. Install them with: ' +
          'npm install vega@^6.3.0 vega-lite@^6.4.3 vega-interpreter@^2.3.2 @resvg/resvg-js@^2.6.2 @duckdb/node-api@1.5.6-r.1',
      ),
      createQueueRuns: config(
        'Queue mode needs bullmq and ioredis. Install them with: npm install bullmq@^6.7.0 ioredis@^5.9.3',
      ),
      createRunWorker: config(
        'Queue mode needs bullmq and ioredis. Install them with: npm install bullmq@^6.7.0 ioredis@^5.9.3',
      ),
      PostgresRunStore: config('The PostgreSQL stores need pg. Install it with: npm install pg@^8.23.1'),
      PostgresMemoryStore: config('The PostgreSQL stores need pg. Install it with: npm install pg@^8.23.1'),
      // mcpTools loads the client with import(), createMcpServer the server with require: both paths.
      mcpTools: config(
        'MCP needs @modelcontextprotocol/sdk. Install it with: npm install @modelcontextprotocol/sdk@^1.32.2',
      ),
      createMcpServer: config(
        'MCP needs @modelcontextprotocol/sdk. Install it with: npm install @modelcontextprotocol/sdk@^1.32.2',
      ),
      otelExporter: config(
        'The OpenTelemetry exporter needs @opentelemetry/api. Install it with: npm install @opentelemetry/api@^1.9.0',
      ),
      httpGetTool: config('The http_get tool needs html-to-text. Install it with: npm install html-to-text@^10.0.1'),
      searchDocumentsTool: config(
        'The search_documents tool needs minisearch. Install it with: npm install minisearch@^7.2.0',
      ),
      // Without gpt-tokenizer, token counts fall back to the estimate: no error.
      tokenCounter: 'estimate',
    });
  });

  it('one missing package of several is named alone', async () => {
    const report = await useEveryPeer(['vega-lite', 'ioredis'], ['chartTools', 'createQueueRuns']);
    expect(report.chartTools).toEqual(
      config('The chart tools need vega-lite. Install it with: npm install vega-lite@^6.4.3'),
    );
    expect(report.createQueueRuns).toEqual(
      config('Queue mode needs ioredis. Install it with: npm install ioredis@^5.9.3'),
    );
  });

  it('a peer that is installed but broken (its own dependency missing) keeps its own error', async () => {
    const report = await useEveryPeer(['pg-pool'], ['PostgresRunStore']);
    expect(report.PostgresRunStore).toEqual({ other: expect.stringContaining("Cannot find module 'pg-pool'") });
  });

  it('the CLI prints the missing-peer error and exits with the usage-error code 2', async () => {
    const result = await runCli(['run', '--model', 'demo', '--tools', 'data', 'x'], {
      env: { NODE_OPTIONS: `--import ${HIDE}`, HIDE_PEERS: '@duckdb/node-api' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'The data tools need @duckdb/node-api. Install it with: npm install @duckdb/node-api@1.5.6-r.1',
    );
  });

  it('installed peers pass the check', () => {
    for (const feature of Object.keys(OPTIONAL_FEATURES) as (keyof typeof OPTIONAL_FEATURES)[]) {
      expect(() => assertPeers(feature)).not.toThrow();
    }
  });

  it('package.json lists exactly these peers, optional, in the ranges the errors install, as devDependencies, never as optionalDependencies', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const { zod, ...peers } = pkg.peerDependencies as Record<string, string>;
    expect(zod).toMatch(/^\^4/);
    expect(Object.keys(peers).sort()).toEqual([...EVERY_PEER].sort());
    for (const spec of Object.values(OPTIONAL_FEATURES).flatMap((f) => f.packages)) {
      const name = packageName(spec);
      expect(pkg.peerDependenciesMeta[name], name).toEqual({ optional: true });
      expect(peers[name].replace('^', ''), name).toBe(spec.slice(name.length + 1).replace('^', ''));
      expect(pkg.dependencies[name], name).toBeUndefined();
      expect(pkg.devDependencies[name], name).toBeDefined();
    }
    // npm installs optionalDependencies by default: a peer listed there would be installed for everyone.
    expect(pkg.optionalDependencies).toBeUndefined();
  });
});
