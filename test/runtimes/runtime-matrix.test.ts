import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../llm/providers/openai-server.js';
import { RUNTIMES } from './runtimes.js';
import type { ScenarioReport } from './scenario/scenario.js';

const EXPECTED: ScenarioReport = {
  tool: {
    status: 'done',
    output: 'It is 21 °C and clear in Paris.',
    deltas: expect.any(Number) as unknown as number,
    toolOutput: '{"city":"Paris","tempC":21,"sky":"clear"}',
  },
  json: { status: 'done', output: 'Hello from JSON!', protocol: 'json' },
  workflow: { first: 'suspended', payload: { draft: 'Hello, world' }, second: 'done', output: 'sent: Hello, world' },
  handler: { served: false, answer: 'Hello from the handler.', streamed: 'Streamed hello.', foreignHost: 403 },
};

let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'thinkflow-runtimes-'));
  // One bundle for every runtime, built as for a browser: the root entry needs no Node built-in.
  const result = await build({
    entryPoints: [join(import.meta.dirname, 'scenario', 'scenario.ts')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    outfile: join(work, 'scenario.mjs'),
    logLevel: 'silent',
  });
  expect(result.warnings).toEqual([]);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the same app on five runtimes', { timeout: 120_000 }, () => {
  for (const runtime of RUNTIMES) {
    const missing = runtime.missing();
    if (missing) console.warn(`Skipping ${runtime.name}: ${missing}.`);
    it.skipIf(missing !== undefined)(
      `${runtime.name}: a tool agent streaming from a local server, a json agent, a suspended and resumed workflow, the fetch handler answering the OpenAI client`,
      async () => {
        const server = await startOpenAIServer();
        try {
          server.push(
            { text: '', toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' }] },
            'It is 21 °C and clear in Paris.',
            '{"thought": "A greeting.", "action": "final_answer", "action_input": "Hello from JSON!"}',
            'Hello from the handler.',
            'Streamed hello.',
          );
          const report = JSON.parse(await runtime.run({ work, baseURL: server.url })) as ScenarioReport;
          expect(report).toEqual({ ...EXPECTED, handler: { ...EXPECTED.handler, served: runtime.serves } });
          expect(report.tool.deltas).toBeGreaterThan(1);
          expect(server.requests.map((r) => r.body.stream)).toEqual([true, true, true, true, true]);
        } finally {
          await server.close();
        }
      },
    );
  }
});
