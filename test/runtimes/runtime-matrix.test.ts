import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../llm/providers/openai-server.js';
import { buildApp, RUNTIMES, type Runtime } from './runtimes.js';
import { PROGRAM } from './scenario/code-scenario.js';
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
  code: {
    status: 'done',
    output: 'It is 70 °F and clear in Paris.',
    observation: 'Log:\nclear\nReturned: "Paris: 70 °F"',
    calls: ['weather {"city":"Paris","tempC":21,"sky":"clear"}', 'fahrenheit {"fahrenheit":70}'],
  },
  workspace: {
    total: '合计 350',
    diff: { added: ['新.txt'], modified: ['数据/销售.csv'], removed: ['报告.md'] },
    restored: ['报告.md', '数据/销售.csv'],
  },
};

// Where thinkflow cannot load QuickJS by itself, the app passes its module, and `codeMode(tools)` without one
// is a ConfigError naming what to do; a loader that cannot work there (a Worker compiling from bytes, a page
// pointing at a missing .wasm) fails the run_code call with what to do.
const CODE_SETUP = {
  found: {},
  browser: {
    setupError: expect.stringMatching(
      /^Code mode cannot load QuickJS by itself in this runtime .*quickJsSandbox\(\{ module: .*wasmLocation/,
    ),
    loadError: expect.stringMatching(
      /Code mode could not fetch QuickJS's .wasm file \(.*\)\. In a browser, .*wasmLocation/,
    ),
  },
  worker: {
    setupError: expect.stringMatching(
      /^Code mode cannot load QuickJS by itself in a Cloudflare Worker.*quickJsSandbox\(\{ module: .*wasmModule/,
    ),
    loadError: expect.stringMatching(
      /Code mode could not compile QuickJS's WebAssembly: this runtime refuses to compile WebAssembly from bytes.*wasmModule/,
    ),
  },
} satisfies Record<Runtime['code'], Partial<ScenarioReport['code']>>;

let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'thinkflow-runtimes-'));
  await buildApp(work);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the same app on five runtimes', { timeout: 120_000 }, () => {
  for (const runtime of RUNTIMES) {
    const missing = runtime.missing();
    if (missing) console.warn(`Skipping ${runtime.name}: ${missing}.`);
    it.skipIf(missing !== undefined)(
      `${runtime.name}: a tool agent streaming from a local server, a json agent, a suspended and resumed workflow, the fetch handler answering the OpenAI client, a code-mode program calling two tools, a virtual workspace`,
      async () => {
        const server = await startOpenAIServer();
        try {
          server.push(
            { text: '', toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' }] },
            'It is 21 °C and clear in Paris.',
            '{"thought": "A greeting.", "action": "final_answer", "action_input": "Hello from JSON!"}',
            'Hello from the handler.',
            'Streamed hello.',
            { text: '', toolCalls: [{ id: 'code1', name: 'run_code', arguments: JSON.stringify({ code: PROGRAM }) }] },
            'It is 70 °F and clear in Paris.',
          );
          const report = JSON.parse(await runtime.run({ work, baseURL: server.url })) as ScenarioReport;
          expect(report).toEqual({
            ...EXPECTED,
            handler: { ...EXPECTED.handler, served: runtime.serves },
            code: { ...EXPECTED.code, ...CODE_SETUP[runtime.code] },
          });
          expect(report.tool.deltas).toBeGreaterThan(1);
          expect(server.requests.map((r) => r.body.stream)).toEqual(Array(7).fill(true));
        } finally {
          await server.close();
        }
      },
    );
  }
});
