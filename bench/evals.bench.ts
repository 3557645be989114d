/**
 * What evals cost, measured in one process:
 * - deterministic scorers: scored items per second, each scorer alone and all nine together (target ≥ 20,000/s);
 * - runExperiment's overhead per case against plain agent.run on the same agent and inputs (target ≤ 1.2×),
 *   on the built package when there is one (`npm run build` first; THINKFLOW_BENCH_DIST=src: the sources),
 *   with the in-memory store (what runExperiment uses without a `store`) and with SqliteExperimentStore;
 *   CPU and wall time, interleaved rounds (EVALS_ROUNDS, default 9) of five passes each (each pass in a
 *   shuffled order, seeded), a pass five
 *   experiments of 1,000 cases (EVALS_EXPERIMENTS; plain agent.run: as many times the 1,000 runs) (EVALS_GC=1: a
 *   garbage collection before each pass; it made the ratios no steadier and runExperiment's higher, perhaps as the
 *   young generation starts small again after one); the SQLite store is one file open for the whole
 *   bench, and opening and closing one per experiment is timed apart. Figures: docs/evals.md#benchmarks;
 * - a rescore of 50,000 runs stored in the server's SQLite run store;
 * - online scoring in the server: p50/p99 of `POST /v1/agents/:name/runs?wait=true` with scoring on
 *   (every run, four scorers, scores stored beside the runs) against off (target p99 ≤ 1.1×).
 *
 * Run: node --expose-gc --import tsx bench/evals.bench.ts (EVALS_BENCH=online for the server part alone,
 * EVALS_BENCH=overhead for the runExperiment part alone)
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Agent } from '../src/agent/index.js';
import { storedRuns } from '../src/cli/eval-rescore-command.js';
import { mulberry32, type RunResult } from '../src/core/index.js';
import {
  applyScorers,
  budget,
  contains,
  exact,
  jsonMatch,
  noError,
  numeric,
  type RunLike,
  regex,
  rescore,
  runExperiment,
  type Scorer,
  SqliteExperimentStore,
  toolCalls,
  trajectory,
} from '../src/eval/index.js';
import { scriptedModel } from '../src/llm/index.js';
import { createApp, createLocalRuns, SqliteEvalStore, SqliteRunStore, scoreRuns } from '../src/server/index.js';
import { defineTool } from '../src/tools/index.js';

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-bench-evals-'));

function run(i: number): RunLike {
  return {
    runId: `r${i}`,
    status: 'done',
    output: `{"city":"Paris","temp":${i % 30}}`,
    steps: [
      {
        kind: 'tool_calls',
        toolCalls: [
          {
            id: 'a',
            name: 'get_weather',
            input: { city: 'Paris', unit: 'celsius' },
            output: 'sunny',
            ok: true,
            durationMs: 1,
          },
        ],
      },
      { kind: 'final', toolCalls: [] },
    ],
    usage: { promptTokens: 120, completionTokens: 20, llmCalls: 2 },
    durationMs: 30,
  };
}

async function scorerThroughput(): Promise<void> {
  const items = Array.from({ length: 20_000 }, (_, i) => ({
    input: 'weather in Paris?',
    output: run(i).output,
    expected: 'Paris',
    run: run(i),
  }));
  const scorers: Scorer[] = [
    exact('{"city":"Paris"}'),
    contains(),
    regex(/"temp":\d+/),
    numeric(15, { tolerance: 20 }),
    jsonMatch({ fields: { city: 'Paris' } }),
    noError(),
    budget({ maxSteps: 5, maxTokens: 1000, maxLatencyMs: 100 }),
    toolCalls([{ get_weather: { city: ['Paris', 'Paris, France'], unit: ['celsius', ''] } }]),
    trajectory(['get_weather'], { mode: 'in-order' }),
  ];
  const rate = async (list: Scorer[]) => {
    const started = performance.now();
    for (const item of items) await applyScorers(list, item);
    return items.length / ((performance.now() - started) / 1000);
  };
  await rate(scorers); // warm up
  for (const s of scorers)
    console.log(`  ${s.name.padEnd(18)} ${Math.round(await rate([s])).toLocaleString('en')} items/s`);
  console.log(
    `  all nine together  ${Math.round(await rate(scorers)).toLocaleString('en')} items/s (each item scored by 9 scorers)`,
  );
}

/**
 * What the overhead part measures: the built package when there is one (what users run; under tsx every
 * named closure of the sources gains esbuild's `__name` call, which slows `agent.run` about 2× and flatters
 * the ratio), else the sources. THINKFLOW_BENCH_DIST=src measures the sources.
 */
async function overheadBuild() {
  const dist =
    (process.env.THINKFLOW_BENCH_DIST ??
      (existsSync(new URL('../dist/index.js', import.meta.url)) ? 'dist' : 'src')) !== 'src';
  if (!dist) {
    return {
      label: 'src under tsx',
      Agent,
      defineTool,
      scriptedModel,
      runExperiment,
      contains,
      noError,
      SqliteExperimentStore,
    };
  }
  const core = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof import('../src/index.js');
  const evals = (await import(
    new URL('../dist/entries/eval.js', import.meta.url).href
  )) as typeof import('../src/entries/eval.js');
  const { runExperiment: run, contains: has, noError: ok, SqliteExperimentStore: Store } = evals;
  return {
    label: 'dist',
    Agent: core.Agent,
    defineTool: core.defineTool,
    scriptedModel: core.scriptedModel,
    runExperiment: run,
    contains: has,
    noError: ok,
    SqliteExperimentStore: Store,
  };
}

async function experimentOverhead(): Promise<void> {
  const { label, Agent, defineTool, scriptedModel, runExperiment, contains, noError, SqliteExperimentStore } =
    await overheadBuild();
  console.log(`runExperiment overhead, measured on ${label}:`);
  const echo = defineTool({
    name: 'echo',
    description: 'Echo.',
    input: z.object({ n: z.number() }),
    run: ({ n }) => `n=${n}`,
  });
  const makeAgent = () =>
    new Agent({
      // `record: false`: a model serving 1,000 runs keeps none of their requests, as a real model keeps
      // none. Recorded (the default), the requests made every collection of the pass copy more, which
      // charged each side's garbage about 0.2 µs a KB, more than it costs next to a real model.
      model: scriptedModel(
        (request) =>
          request.messages.some((m) => m.role === 'tool')
            ? 'done: 4'
            : { text: '', toolCalls: [{ id: 'c', name: 'echo', arguments: '{"n":4}' }] },
        { record: false },
      ),
      tools: [echo],
      streaming: false,
    });
  const n = 1_000;
  const data = Array.from({ length: n }, (_, i) => ({ input: `q${i}`, expected: '4' }));
  // A pass is EVALS_EXPERIMENTS experiments of the 1,000 cases (default 5; plain: as many times the 1,000
  // runs): a single one is 10 ms on the built package, so whether a collection fell in it moved a pass by
  // ±30%; five span several collections each.
  const experiments = Math.max(1, Number(process.env.EVALS_EXPERIMENTS ?? 5));
  // Each side: a fresh agent of the same config per 1,000 inputs, one at a time. Wall and CPU time
  // per case (CPU time is less disturbed by other processes on a shared machine).
  // EVALS_GC=1: a collection before each side, so garbage left by the previous side is not charged to it.
  const measure = async (work: () => Promise<void>) => {
    if (process.env.EVALS_GC) globalThis.gc?.();
    const cpu = process.cpuUsage();
    const started = performance.now();
    await work();
    const used = process.cpuUsage(cpu);
    const cases = n * experiments;
    return { wall: ((performance.now() - started) * 1000) / cases, cpu: (used.user + used.system) / cases };
  };
  const plain = () =>
    measure(async () => {
      for (let e = 0; e < experiments; e++) {
        const agent = makeAgent();
        for (const row of data) await agent.run(row.input);
      }
    });
  // Two sides of runExperiment: `store` unset, what runExperiment gives without options (the in-memory
  // store, every trial kept); and the SQLite store, one file holding every experiment, open for the whole
  // bench, as a data dir's thinkflow.db is in a server or a script running several experiments: the
  // per-case figure is the cost of the trials, and opening and closing a store (once per experiment for
  // `thinkflow eval run`) is timed apart below.
  const sqliteStore = new SqliteExperimentStore({ file: join(dir, 'experiments.db') });
  const sides = {
    memory: { label: 'in-memory store (the default)', store: () => undefined },
    sqlite: { label: 'SqliteExperimentStore', store: () => sqliteStore },
  };
  type Side = keyof typeof sides;
  const experiment = (side: Side) =>
    measure(async () => {
      for (let e = 0; e < experiments; e++) {
        await runExperiment({
          name: 'bench',
          data,
          task: makeAgent(),
          scorers: [contains(), noError()],
          concurrency: 1,
          store: sides[side].store(),
        });
      }
    });
  const names = Object.keys(sides) as Side[];
  for (let i = 0; i < 3; i++) {
    await plain();
    for (const side of names) await experiment(side);
  }
  // The machine is shared: interleave the sides (in a shuffled order each pass), and read each round's ratios.
  const rounds = Number(process.env.EVALS_ROUNDS ?? 9);
  // A pass's order is drawn anew (seeded, so runs repeat): with the order only rotated, each side always
  // came right after the same other side, and garbage a pass leaves is collected in the next one's, so
  // one side always paid for the same other's (the in-memory store's for plain agent.run's).
  const random = mulberry32(47);
  const shuffle = (xs: string[]) => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
  };
  const REPEATS = 5;
  const ratios = Object.fromEntries(names.map((side) => [side, { cpu: [] as number[], wall: [] as number[] }]));
  const middle = (xs: { wall: number; cpu: number }[]) => {
    const at = xs.length >> 1;
    return {
      cpu: xs.map((x) => x.cpu).sort((a, b) => a - b)[at],
      wall: xs.map((x) => x.wall).sort((a, b) => a - b)[at],
    };
  };
  const us = (x: number) => `${x.toFixed(0)} µs`;
  for (let round = 1; round <= rounds; round++) {
    // A round is REPEATS passes over the sides, each pass in its own order; a side's figure in the
    // round is its median pass (one pass is 50 to 80 ms on the built package, which a burst of load from
    // another process can double).
    const passes: Record<string, { wall: number; cpu: number }[]> = { base: [] };
    for (const side of names) passes[side] = [];
    const order = ['base', ...names];
    for (let pass = 0; pass < REPEATS; pass++) {
      shuffle(order);
      for (const which of order) passes[which].push(which === 'base' ? await plain() : await experiment(which as Side));
    }
    const base = middle(passes.base);
    const line = names.map((side) => {
      const m = middle(passes[side]);
      ratios[side].cpu.push(m.cpu / base.cpu);
      ratios[side].wall.push(m.wall / base.wall);
      return `${sides[side].label} ${us(m.cpu)} = ${(m.cpu / base.cpu).toFixed(2)}× (wall ${(m.wall / base.wall).toFixed(2)}×)`;
    });
    console.log(`  round ${round}: agent.run ${us(base.cpu)} CPU (${us(base.wall)} wall) a case · ${line.join(' · ')}`);
  }
  const range = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return `median ${sorted[sorted.length >> 1].toFixed(2)}× (${sorted[0].toFixed(2)}–${sorted[sorted.length - 1].toFixed(2)}×)`;
  };
  console.log(
    `  runExperiment / agent.run, CPU time per case over ${rounds} rounds: ${names.map((side) => `${sides[side].label} ${range(ratios[side].cpu)}`).join('; ')} (target ≤ 1.2×)`,
  );
  console.log(
    `  same by wall time: ${names.map((side) => `${sides[side].label} ${range(ratios[side].wall)}`).join('; ')}`,
  );
  await sqliteStore.close();
  // What a store opened per experiment adds: opening a new file (WAL mode, tables) and closing it
  // (which checkpoints the WAL) around an experiment's 1,000 trials.
  const fixed: number[] = [];
  for (let i = 0; i < 5; i++) {
    const cpu = process.cpuUsage();
    const store = new SqliteExperimentStore({ file: join(dir, `fixed-${i}.db`) });
    await runExperiment({ name: 'bench', data: data.slice(0, 1), task: makeAgent(), scorers: [contains()], store });
    await store.close();
    const used = process.cpuUsage(cpu);
    fixed.push((used.user + used.system) / 1000);
  }
  fixed.sort((a, b) => a - b);
  console.log(
    `  a SQLite store opened and closed per experiment (a new file, one case): ${fixed[0].toFixed(1)}–${fixed[4].toFixed(1)} ms of CPU, ${fixed[2].toFixed(1)} µs a case of a 1,000-case experiment`,
  );
}

async function rescoreStored(): Promise<void> {
  const store = new SqliteRunStore({ path: join(dir, 'runs.db') });
  await store.init();
  const now = Date.now();
  const total = 50_000;
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    await store.createRun({
      id: `run-${String(i).padStart(6, '0')}`,
      agent: 'support',
      input: 'weather in Paris?',
      status: 'done',
      source: 'api',
      createdAt: now + i,
      updatedAt: now + i,
      result: run(i) as unknown as RunResult,
    });
  }
  console.log(`  stored ${total.toLocaleString('en')} runs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const t0 = performance.now();
  let scored = 0;
  for await (const _ of rescore(storedRuns(store, 'support', total), [
    noError(),
    budget({ maxSteps: 5 }),
    toolCalls([{ get_weather: { city: ['Paris'], unit: ['celsius', ''] } }]),
  ]))
    scored++;
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `  rescored ${scored.toLocaleString('en')} stored runs (3 scorers) in ${seconds.toFixed(1)} s = ${Math.round(scored / seconds).toLocaleString('en')} runs/s`,
  );
  await store.close();
}

/** Latencies of `n` run requests through the app, `clients` at a time, added to `into`. */
async function runLatencies(app: ReturnType<typeof createApp>, n: number, clients: number, into: number[]) {
  let next = 0;
  const client = async () => {
    while (next++ < n) {
      const t0 = performance.now();
      const response = await app.fetch(
        new Request('http://localhost/v1/agents/helper/runs?wait=true', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"input":"What is the weather in Paris?"}',
        }),
      );
      await response.text();
      into.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)];

async function onlineScoringOverhead(): Promise<void> {
  const weather = defineTool({
    name: 'get_weather',
    description: 'Weather for a city.',
    input: z.object({ city: z.string(), unit: z.string() }),
    run: () => 'sunny',
  });
  const helper = () =>
    new Agent({
      model: scriptedModel([
        { text: '', toolCalls: [{ id: 'a', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' }] },
        '{"city":"Paris","temp":21}',
      ]),
      tools: [weather],
    });
  const scorers = [
    noError(),
    contains('Paris'),
    budget({ maxSteps: 5, maxLatencyMs: 1000 }),
    toolCalls([{ get_weather: { city: ['Paris'], unit: ['celsius', ''] } }]),
  ];
  // Both servers live at once, measured in alternating batches, so the machine's noise (other processes,
  // GC, WAL checkpoints) falls on both alike.
  const open = (name: string, scoring: boolean) => {
    const path = join(dir, `online-${name}.db`);
    const store = new SqliteRunStore({ path });
    const evals = new SqliteEvalStore({ path });
    const local = createLocalRuns({ agents: { helper }, store });
    const runs = scoring
      ? scoreRuns(local, { scoring: { agents: { helper: { scorers } } }, evals, onError: console.error })
      : local;
    return { app: createApp({ runs, evals }), runs, evals, store };
  };
  const off = open('off', false);
  const on = open('on', true);
  await runLatencies(off.app, 200, 4, []); // warm-up
  await runLatencies(on.app, 200, 4, []);
  const rounds: { off: { p50: number; p99: number }; on: { p50: number; p99: number } }[] = [];
  for (let round = 0; round < 3; round++) {
    const pools = { off: [] as number[], on: [] as number[] };
    for (let batch = 0; batch < 20; batch++) {
      const order = batch % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
      for (const which of order) await runLatencies(which === 'off' ? off.app : on.app, 100, 4, pools[which]);
    }
    const stats = (xs: number[]) => ({ p50: quantile(xs, 0.5), p99: quantile(xs, 0.99) });
    rounds.push({ off: stats(pools.off), on: stats(pools.on) });
  }
  for (const server of [off, on]) {
    await server.runs.close({ timeoutMs: 10_000 });
    await server.evals.close();
    await server.store.close();
  }
  const ms = (x: number) => `${x.toFixed(2)} ms`;
  for (const [i, { off, on }] of rounds.entries()) {
    console.log(
      `  round ${i + 1}: off p50 ${ms(off.p50)} p99 ${ms(off.p99)} · on p50 ${ms(on.p50)} p99 ${ms(on.p99)} · p99 on/off ${(on.p99 / off.p99).toFixed(2)}×`,
    );
  }
  const ratios = rounds.map(({ off, on }) => on.p99 / off.p99);
  console.log(
    `  p99 on/off ratio over ${rounds.length} rounds: ${Math.min(...ratios).toFixed(2)}×..${Math.max(...ratios).toFixed(2)}× (target ≤ 1.1×)`,
  );
}

// `EVALS_BENCH=online` runs the online-scoring part alone, `EVALS_BENCH=overhead` the runExperiment part alone.
const part = process.env.EVALS_BENCH;
if (part === 'overhead') {
  console.log(
    'runExperiment overhead per case (experiments of 1,000 cases, 2-step agent, instant scripted model, concurrency 1):',
  );
  await experimentOverhead();
} else if (part !== 'online') {
  console.log('deterministic scorers (20,000 items):');
  await scorerThroughput();
  console.log(
    'runExperiment overhead per case (experiments of 1,000 cases, 2-step agent, instant scripted model, concurrency 1):',
  );
  await experimentOverhead();
  console.log('rescore of stored runs:');
  await rescoreStored();
}
if (part !== 'overhead') {
  console.log(
    'online scoring in the server (2,000 runs per round and server, 4 clients, batches of 100 alternating; every run scored by 4 scorers):',
  );
  await onlineScoringOverhead();
}
rmSync(dir, { recursive: true, force: true });
