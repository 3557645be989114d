/**
 * The studio's step tree with 50, 500 and 5,000 steps in headless Chromium: the step rows built, the
 * time from picking the trace file to its first step drawn, and from scrolling to the bottom to the
 * last step drawn, each as a ratio to the 50-step trace measured in the same run (3 rounds, range quoted).
 * Needs /usr/bin/chromium and the bundle (`npm run build:studio`).
 *
 * Run: npm run build:studio && node --import tsx bench/studio.bench.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoConfig } from '../src/cli/studio-command.js';
import { serve } from '../src/server/index.js';
import { launchChromium } from '../test/studio/studio-browser.fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-studio-bench-'));
const server = await serve({ config: { ...demoConfig(), studio: true }, port: 0, dataDir: dir, log: () => {} });
const browser = await launchChromium();

function traceFile(steps: number): string {
  const lines: unknown[] = [{ type: 'run_start', runId: 'b', input: 'x', model: 'openai:gpt-4o-mini', tools: [] }];
  for (let step = 0; step < steps; step++) {
    const at = { runId: 'b', step, ts: step };
    lines.push(
      { type: 'step_start', ...at },
      { type: 'model_response', ...at, text: '', ms: 3, usage: { promptTokens: 900, completionTokens: 80 } },
      { type: 'tool_start', ...at, callId: `c${step}`, tool: 'lookup', input: { topic: `t${step}` } },
      { type: 'tool_end', ...at, callId: `c${step}`, tool: 'lookup', ms: 1, ok: true, output: `out ${step}` },
    );
  }
  const file = join(dir, `${steps}.jsonl`);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
  return file;
}

async function measure(steps: number, file: string): Promise<{ rows: number; openMs: number; scrollMs: number }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/studio#trace`);
  await page.waitForSelector('#trace-file');
  let started = performance.now();
  await page.setInputFiles('#trace-file', file);
  await page.waitForSelector('#tree .step[data-step="0"]');
  const openMs = performance.now() - started;
  const rows = await page.locator('#tree .step').count();
  started = performance.now();
  await page.$eval('#tree', (el) => {
    el.scrollTop = el.scrollHeight;
  });
  await page.waitForSelector(`#tree .step[data-step="${steps - 1}"]`);
  const scrollMs = performance.now() - started;
  await page.close();
  return { rows, openMs, scrollMs };
}

const sizes = [50, 500, 5000];
const files = sizes.map(traceFile);
const rounds: Record<number, { rows: number; openMs: number; scrollMs: number }>[] = [];
for (let round = 0; round < 3; round++) {
  const results: (typeof rounds)[number] = {};
  for (const [i, steps] of sizes.entries()) results[steps] = await measure(steps, files[i]);
  rounds.push(results);
}
const range = (values: number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
for (const steps of sizes) {
  const open = rounds.map((r) => r[steps].openMs / r[50].openMs);
  const scroll = rounds.map((r) => r[steps].scrollMs / r[50].scrollMs);
  console.log(
    `${steps} steps: ${rounds[0][steps].rows} step rows built; open ×${range(open)}, scroll to the end ×${range(scroll)} (vs 50 steps)`,
  );
}
await browser.close();
await server.close();
rmSync(dir, { recursive: true, force: true });
