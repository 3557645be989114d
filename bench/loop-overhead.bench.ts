/**
 * Framework overhead per step: thinkflow's loop against a hand-written loop doing the same work
 * (the floor), on a 5-step task (four tool calls, then the answer) with an instant model, with a synchronous
 * and an async tool; and on the shape #44 measures: five steps, the second a parallel pair of calls, with
 * `streaming: false` and with streaming left on (the default, the scripted model streaming each reply).
 * Also: 8 concurrent 50 ms tool calls in one step, and retained heap over thousands of runs.
 * Run: npm run build && node --expose-gc --import tsx bench/loop-overhead.bench.ts
 */

import { existsSync } from 'node:fs';
import { z } from 'zod';
import type * as Thinkflow from '../src/index.js';
import type { Message, ModelResponse } from '../src/index.js';

// Measure the compiled package when it is built (what users run); else the sources through tsx.
// THINKFLOW_BENCH_DIST=<dir inside the repo> measures another build (an older commit's dist, for a before/after).
const source =
  process.env.THINKFLOW_BENCH_DIST ?? (existsSync(new URL('../dist/index.js', import.meta.url)) ? 'dist' : 'src');
const { Agent, defineTool, scriptedModel } = (await import(
  source === 'src' ? '../src/index.js' : new URL(`../${source}/index.js`, import.meta.url).href
)) as typeof Thinkflow;

const addInput = z.object({ a: z.number(), b: z.number() });
const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  input: addInput,
  run: ({ a, b }): number | Promise<number> => a + b,
});
/** The same tool written as an async function, as most real tools are. */
const addAsync = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  input: addInput,
  run: async ({ a, b }): Promise<number> => a + b,
});
type AddTool = typeof add;

const script: ModelResponse[] = [
  ...[1, 2, 3, 4].map((i) => ({
    text: '',
    toolCalls: [{ id: `c${i}`, name: 'add', arguments: `{"a":${i},"b":${i}}` }],
  })),
  { text: 'The answer is 20.' },
];

/** The shape (#44): five steps, the second a parallel pair of calls. */
const pairScript: ModelResponse[] = [
  script[0],
  {
    text: '',
    toolCalls: [
      { id: 'p1', name: 'add', arguments: '{"a":2,"b":2}' },
      { id: 'p2', name: 'add', arguments: '{"a":5,"b":5}' },
    ],
  },
  script[2],
  script[3],
  { text: 'The answer is 30.' },
];

type NextReply = (messages: Message[], turn: number) => ModelResponse | Promise<ModelResponse>;

/**
 * The floor: the same five model turns and four tool calls, written by hand. Bare, it reads the script
 * itself; with `next`, it asks for each reply as a hand-written agent asks its model.
 */
async function handWritten(
  tool: AddTool,
  replies: ModelResponse[] = script,
  next: NextReply = (_, turn) => replies[turn],
): Promise<string> {
  const messages: Message[] = [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: 'Add things.' },
  ];
  for (let turn = 0; ; turn++) {
    const asked = next(messages, turn);
    const reply = asked instanceof Promise ? await asked : asked;
    messages.push({ role: 'assistant', content: reply.text, toolCalls: reply.toolCalls });
    if (!reply.toolCalls?.length) return reply.text;
    for (const c of reply.toolCalls) {
      const args = tool.parse(JSON.parse(c.arguments));
      if (!args.ok) throw new Error('bad');
      const out = await tool.run(args.value, {} as never);
      messages.push({ role: 'tool', content: String(out), toolCallId: c.id });
    }
  }
}

/**
 * The floor with the model in it: the same loop, asking the same scripted model for each reply with
 * the messages and tools a user's own loop would send (the work a hand-written agent on thinkflow's
 * model layer does).
 */
function handWrittenWithModel(tool: AddTool, replies: ModelResponse[] = script): Promise<string> {
  const model = scriptedModel(replies);
  const tools = [{ name: tool.name, description: tool.description, parameters: tool.parameters }];
  return handWritten(tool, replies, (messages) => model.generate({ messages, tools }));
}

async function thinkflowRun(tool: AddTool, replies: ModelResponse[] = script, streaming = false): Promise<string> {
  const agent = new Agent({ model: scriptedModel(replies), tools: [tool], streaming });
  const result = await agent.run('Add things.');
  if (result.status !== 'done') throw new Error(result.status);
  return result.output;
}

/**
 * µs per run, by the wall clock and in CPU time (this process's; a busy machine inflates the wall clock,
 * not this), and each run's own wall time into `samples` (for the p50).
 */
async function timeIt(
  fn: () => Promise<unknown>,
  runs: number,
  samples: number[],
): Promise<{ wall: number; cpu: number }> {
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e3);
  }
  const cpu = process.cpuUsage(cpuStart);
  return { wall: Number(process.hrtime.bigint() - start) / 1e3 / runs, cpu: (cpu.user + cpu.system) / runs };
}

function median(samples: number[]): number {
  const sorted = samples.slice().sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

// Interleaved rounds, best of each side: the machine may be busy, so one long measurement is noisy.
// The warm-up and the rounds are long enough for both sides to run optimized code (rounds of 500
// runs after 300 warm-up runs measured the JIT warming up half the time, reading up to 2× slower).
const RUNS = 2000;
const ROUNDS = 11;
// The last case leaves `streaming` at its default (on): the scripted model streams each reply in pieces.
for (const [label, tool, replies, streaming] of [
  ['a synchronous tool', add, script, false],
  ['an async tool', addAsync, script, false],
  ['a synchronous tool and a parallel pair (the shape of #44)', add, pairScript, false],
  ['the parallel pair, streaming on (the default)', add, pairScript, true],
] as const) {
  for (let i = 0; i < 3000; i++) {
    await handWritten(tool, replies);
    await handWrittenWithModel(tool, replies);
    await thinkflowRun(tool, replies, streaming);
  }
  let floor = Number.POSITIVE_INFINITY;
  let ours = Number.POSITIVE_INFINITY;
  let floorCpu = Number.POSITIVE_INFINITY;
  let oursCpu = Number.POSITIVE_INFINITY;
  const samples = { hand: [] as number[], withModel: [] as number[], agent: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const hand = await timeIt(() => handWritten(tool, replies), RUNS, samples.hand);
    await timeIt(() => handWrittenWithModel(tool, replies), RUNS, samples.withModel);
    const agent = await timeIt(() => thinkflowRun(tool, replies, streaming), RUNS, samples.agent);
    floor = Math.min(floor, hand.wall);
    ours = Math.min(ours, agent.wall);
    floorCpu = Math.min(floorCpu, hand.cpu);
    oursCpu = Math.min(oursCpu, agent.cpu);
  }
  const p50 = { hand: median(samples.hand), withModel: median(samples.withModel), agent: median(samples.agent) };
  console.log(`loop overhead, 5-step task with ${label}, ${ROUNDS} interleaved rounds of ${RUNS} runs (${source}):`);
  console.log(
    `  p50 per step      : hand-written ${(p50.hand / 5).toFixed(2)} µs, with the model call ${(p50.withModel / 5).toFixed(2)} µs, thinkflow ${(p50.agent / 5).toFixed(2)} µs`,
  );
  console.log(
    `  p50 ratio         : ${(p50.agent / p50.hand).toFixed(1)}× the bare loop, ${(p50.agent / p50.withModel).toFixed(1)}× the loop calling the model (target ≤ 5×)`,
  );
  console.log(
    `  best round        : ${(floor / 5).toFixed(2)} vs ${(ours / 5).toFixed(2)} µs/step, ${(ours / floor).toFixed(1)}×`,
  );
  console.log(
    `  in CPU time       : ${(floorCpu / 5).toFixed(2)} vs ${(oursCpu / 5).toFixed(2)} µs/step, ${(oursCpu / floorCpu).toFixed(1)}× the bare loop`,
  );
}

// Eight 50 ms calls in one step run concurrently.
const wait = defineTool({
  name: 'wait',
  description: 'Waits 50 ms.',
  input: z.object({ i: z.number() }),
  run: async ({ i }) => {
    await new Promise((r) => setTimeout(r, 50));
    return i;
  },
});
const eight: ModelResponse = {
  text: '',
  toolCalls: Array.from({ length: 8 }, (_, i) => ({ id: `w${i}`, name: 'wait', arguments: `{"i":${i}}` })),
};
const started = performance.now();
const eightResult = await new Agent({ model: scriptedModel([eight, 'done']), tools: [wait] }).run('wait');
const toolMs = eightResult.steps[0].toolCalls.reduce((n, c) => Math.max(n, c.durationMs), 0);
console.log(
  `8 × 50 ms tool calls in one step: step wall ${(performance.now() - started).toFixed(0)} ms (serial would be 400 ms; longest call ${toolMs} ms)`,
);

// Retained heap stays flat over thousands of runs.
const gc = (globalThis as { gc?: () => void }).gc;
if (gc) {
  const heapAfter = async (n: number) => {
    for (let i = 0; i < n; i++) await thinkflowRun(add);
    gc();
    return process.memoryUsage().heapUsed / 1024 / 1024;
  };
  const first = await heapAfter(1000);
  const later = await heapAfter(4000);
  console.log(
    `retained heap: ${first.toFixed(1)} MiB after 1000 runs, ${later.toFixed(1)} MiB after 5000 (ratio ${(later / first).toFixed(2)})`,
  );
} else {
  console.log('retained heap: run with --expose-gc to measure');
}
