/**
 * Executor overhead per tool call against calling the tool directly, measured in one run.
 * "direct" awaits `tool.run(input, ctx)`; "hand-written" also parses the JSON arguments and
 * validates them with zod (what a minimal loop must do anyway); "executor" runs the same calls
 * through `createToolExecutor().execute()` (name lookup, coercion, validation, scheduling,
 * timeout, serialization, truncation, start/end records).
 *
 * Run: node --import tsx bench/tool-executor.bench.ts
 */
import { z } from 'zod';
import { createToolExecutor, defineTool, type ToolContext, ToolRegistry } from '../src/tools/index.js';

const input = z.object({ city: z.string(), days: z.number().int().optional() });
const weather = defineTool({
  name: 'weather',
  description: 'Weather for a city.',
  input,
  run: async ({ city, days }) => ({ city, days: days ?? 1, forecast: 'sunny', tempC: 21 }),
});
const ctx: ToolContext = {
  signal: new AbortController().signal,
  runId: 'bench',
  callId: 'c',
  logger: { debug() {}, info() {}, warn() {}, error() {} },
  approve: async () => false,
};
const args = '{"city":"Paris","days":2}';
const N = 50_000;
const BATCH = 4;

async function direct(): Promise<number> {
  let chars = 0;
  for (let i = 0; i < N; i++) {
    const out = await weather.run({ city: 'Paris', days: 2 }, ctx);
    chars += JSON.stringify(out).length;
  }
  return chars;
}

async function handWritten(): Promise<number> {
  let chars = 0;
  for (let i = 0; i < N; i++) {
    const parsed = input.parse(JSON.parse(args));
    const out = await weather.run(parsed, ctx);
    chars += JSON.stringify(out).length;
  }
  return chars;
}

async function executorSingle(): Promise<number> {
  const executor = createToolExecutor({ registry: new ToolRegistry([weather]), runId: 'bench', maxFailures: N });
  let chars = 0;
  const onStart = () => {};
  const onEnd = () => {};
  for (let i = 0; i < N; i++) {
    const [record] = await executor.execute([{ id: 'c', name: 'weather', input: args }], { onStart, onEnd });
    chars += record.output.length;
  }
  return chars;
}

async function executorBatch(): Promise<number> {
  const executor = createToolExecutor({ registry: new ToolRegistry([weather]), runId: 'bench', maxFailures: N });
  const calls = Array.from({ length: BATCH }, (_, i) => ({ id: `c${i}`, name: 'weather', input: args }));
  let chars = 0;
  for (let i = 0; i < N / BATCH; i++) {
    for (const record of await executor.execute(calls)) chars += record.output.length;
  }
  return chars;
}

/** Best of three rounds, in µs per call: wall clock and CPU time (CPU is steadier on a busy machine). */
async function time(name: string, fn: () => Promise<number>): Promise<{ wall: number; cpu: number }> {
  await fn(); // warm-up: JIT, caches
  let wall = Number.POSITIVE_INFINITY;
  let cpu = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const began = performance.now();
    const usage = process.cpuUsage();
    await fn();
    const used = process.cpuUsage(usage);
    wall = Math.min(wall, ((performance.now() - began) * 1000) / N);
    cpu = Math.min(cpu, (used.user + used.system) / N);
  }
  console.log(
    `${name.padEnd(30)} ${wall.toFixed(2).padStart(7)} µs/call wall ${cpu.toFixed(2).padStart(7)} µs/call cpu`,
  );
  return { wall, cpu };
}

const d = await time('direct tool.run', direct);
const h = await time('hand-written parse+validate', handWritten);
const e = await time('executor, 1 call per step', executorSingle);
const b = await time(`executor, ${BATCH} calls per step`, executorBatch);
const ratio = (x: number, y: number) => `${(x / y).toFixed(1)}x`;
console.log('');
console.log(
  `executor / direct:        wall ${ratio(e.wall, d.wall)} (batched ${ratio(b.wall, d.wall)}), cpu ${ratio(e.cpu, d.cpu)} (batched ${ratio(b.cpu, d.cpu)})`,
);
console.log(
  `executor / hand-written:  wall ${ratio(e.wall, h.wall)} (batched ${ratio(b.wall, h.wall)}), cpu ${ratio(e.cpu, h.cpu)} (batched ${ratio(b.cpu, h.cpu)})`,
);
console.log(
  `executor overhead:        ${(e.wall - d.wall).toFixed(2)} µs per call (wall), ${(e.cpu - d.cpu).toFixed(2)} µs (cpu)`,
);
