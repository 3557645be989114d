/**
 * Two builds of thinkflow in one process, the loop bench's five-step agent alternated round by round: a
 * before/after of a change to the loop that the shared machine's load does not swamp (both builds see the
 * same load). CPU µs per step, median and best of the rounds, and the ratio of the medians.
 *
 *   # build the older commit into a folder inside the repo first, e.g. git worktree + npm run build + cp -r dist .bench-base
 *   npm run build && node --import tsx bench/loop-builds.bench.ts .bench-base [dist]
 */

import { z } from 'zod';
import type * as Thinkflow from '../src/index.js';
import type { ModelResponse } from '../src/index.js';

const [baseDir, headDir = 'dist'] = process.argv.slice(2);
if (!baseDir) throw new Error('Usage: node --import tsx bench/loop-builds.bench.ts <base build dir> [head build dir]');

const script: ModelResponse[] = [
  ...[1, 2, 3, 4].map((i) => ({
    text: '',
    toolCalls: [{ id: `c${i}`, name: 'add', arguments: `{"a":${i},"b":${i}}` }],
  })),
  { text: 'The answer is 20.' },
];

async function runnerOf(dir: string): Promise<() => Promise<void>> {
  const tf = (await import(new URL(`../${dir}/index.js`, import.meta.url).href)) as typeof Thinkflow;
  const add = tf.defineTool({
    name: 'add',
    description: 'Adds two numbers.',
    input: z.object({ a: z.number(), b: z.number() }),
    run: ({ a, b }): number => a + b,
  });
  return async () => {
    const result = await new tf.Agent({ model: tf.scriptedModel(script), tools: [add], streaming: false }).run('Add.');
    if (result.status !== 'done') throw new Error(result.status);
  };
}

const builds = { base: await runnerOf(baseDir), head: await runnerOf(headDir) };
for (const run of Object.values(builds)) for (let i = 0; i < 5000; i++) await run();
const perStep = { base: [] as number[], head: [] as number[] };
const ROUNDS = 20;
const RUNS = 2000;
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 ? (['base', 'head'] as const) : (['head', 'base'] as const)) {
    const start = process.cpuUsage();
    for (let i = 0; i < RUNS; i++) await builds[name]();
    const used = process.cpuUsage(start);
    perStep[name].push((used.user + used.system) / RUNS / 5);
  }
}
const median = (values: number[]) => values.slice().sort((a, b) => a - b)[values.length >> 1];
const [base, head] = [median(perStep.base), median(perStep.head)];
console.log(`loop, CPU µs per step over ${ROUNDS} alternated rounds of ${RUNS} runs (${baseDir} vs ${headDir}):`);
console.log(`  median: base ${base.toFixed(2)}, head ${head.toFixed(2)}, head/base ${(head / base).toFixed(3)}`);
console.log(`  best  : base ${Math.min(...perStep.base).toFixed(2)}, head ${Math.min(...perStep.head).toFixed(2)}`);
