import { join } from 'node:path';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/index.js';
import { contains, createScorer, noError } from '../../../src/eval/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import {
  createApp,
  createLocalRuns,
  memoryRunStore,
  type RunningServer,
  type RunScore,
  SqliteEvalStore,
  scoreRuns,
  serve,
} from '../../../src/server/index.js';
import { otelScoreExporter } from '../../../src/trace/index.js';
import { tempDir } from '../server-fixtures.js';

/** A promise with its resolve, to hold a scorer until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const helper = () => new Agent({ name: 'helper', model: scriptedModel(['Paris is the capital of France.']) });

async function scoresOf(server: RunningServer, id: string, count: number): Promise<RunScore[]> {
  for (;;) {
    const body = (await (await fetch(`${server.url}/v1/runs/${id}/scores`)).json()) as { scores: RunScore[] };
    if (body.scores.length >= count) return body.scores;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let server: RunningServer | undefined;
let dir: ReturnType<typeof tempDir> | undefined;
afterEach(async () => {
  await server?.close();
  dir?.cleanup();
  server = undefined;
  dir = undefined;
});

describe('online scoring in thinkflow serve', () => {
  it('answers the run before a slow scorer finishes, then keeps every verdict, failures as scorer errors', async () => {
    dir = tempDir();
    const slow = gate();
    let slowStarted = false;
    const lines: string[] = [];
    server = await serve({
      port: 0,
      dataDir: dir.path,
      log: (line) => lines.push(line),
      config: {
        agents: { helper },
        scoring: {
          timeoutMs: 300,
          agents: {
            helper: {
              scorers: [
                contains('Paris'),
                createScorer({
                  name: 'slow',
                  score: async () => {
                    slowStarted = true;
                    await slow.opened;
                    return 1;
                  },
                }),
                createScorer({
                  name: 'throws',
                  score: () => {
                    throw new Error('scorer bug');
                  },
                }),
                createScorer({ name: 'hangs', score: () => new Promise<number>(() => {}) }),
              ],
            },
          },
        },
      },
    });
    const response = await fetch(`${server.url}/v1/agents/helper/runs?wait=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"input":"What is the capital of France?"}',
    });
    const run = (await response.json()) as { id: string; status: string };
    // The run answered while its slow scorer was still held: scoring is not on the run's path.
    expect(response.status).toBe(200);
    expect(run.status).toBe('done');
    const early = (await (await fetch(`${server.url}/v1/runs/${run.id}/scores`)).json()) as { scores: unknown[] };
    expect(early.scores).toEqual([]);
    await expect.poll(() => slowStarted).toBe(true);
    slow.open();
    const scores = await scoresOf(server, run.id, 4);
    const byName = Object.fromEntries(scores.map((s) => [s.name, s]));
    expect(byName.contains).toMatchObject({ runId: run.id, score: 1, pass: true });
    expect(byName.slow).toMatchObject({ score: 1, pass: true });
    expect(byName.throws).toMatchObject({ score: 0, pass: false, error: 'scorer bug' });
    expect(byName.hangs).toMatchObject({ score: 0, pass: false, error: 'the scorer took longer than 300 ms' });
    // The server goes on serving.
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect(lines.filter((line) => line.includes('online scoring'))).toEqual([]);
  });

  it('answers 404 for the scores of a run that does not exist', async () => {
    dir = tempDir();
    server = await serve({ port: 0, dataDir: dir.path, log: () => {}, config: { agents: { helper } } });
    const response = await fetch(`${server.url}/v1/runs/nope/scores`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('keeps the scores in the run store beside the runs: a restarted server still serves them', async () => {
    dir = tempDir();
    const config = {
      store: { type: 'sqlite' as const, path: join(dir.path, 'runs.db') },
      agents: { helper },
      scoring: { agents: { helper: { scorers: [noError()] } } },
    };
    server = await serve({ port: 0, dataDir: dir.path, log: () => {}, config });
    const started = await fetch(`${server.url}/v1/agents/helper/runs?wait=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"input":"hi"}',
    });
    const { id } = (await started.json()) as { id: string };
    await scoresOf(server, id, 1);
    await server.close();
    server = await serve({ port: 0, dataDir: dir.path, log: () => {}, config });
    expect((await scoresOf(server, id, 1)).map((s) => s.name)).toEqual(['noError']);
  });
});

describe('scoreRuns', () => {
  const services = (rate: number, draws: number[]) => {
    const store = memoryRunStore();
    const evals = new SqliteEvalStore({ path: ':memory:' });
    const exported: string[] = [];
    const runs = scoreRuns(createLocalRuns({ agents: { helper }, store }), {
      scoring: {
        agents: { helper: { scorers: [contains('Paris')], sampleRate: rate } },
        onScores: ({ runId, scores }) => exported.push(`${runId}:${scores.map((s) => s.score).join(',')}`),
      },
      evals,
      onError: (error) => {
        throw error;
      },
      random: () => draws.shift() ?? 0,
    });
    const app = createApp({ runs, evals });
    return { runs, evals, app, exported };
  };

  it('scores the sample its rate draws, and hands each scored run to onScores', async () => {
    const { runs, evals, exported } = services(0.5, [0.3, 0.7, 0.49]);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const started = await runs.start({ agent: 'helper', input: `q${i}` });
      if (!started.ok) throw new Error('not started');
      ids.push(started.run.id);
      await runs.wait(started.run.id);
    }
    await runs.idle();
    const scored = await Promise.all(ids.map(async (id) => (await evals.readScores(id)).length));
    expect(scored).toEqual([1, 0, 1]);
    expect(exported).toEqual([`${ids[0]}:1`, `${ids[2]}:1`]);
    await runs.close({ timeoutMs: 100 });
    await evals.close();
  });

  it('scores nothing at sampleRate 0', async () => {
    const { runs, evals } = services(0, [0, 0]);
    const started = await runs.start({ agent: 'helper', input: 'q' });
    if (!started.ok) throw new Error('not started');
    await runs.wait(started.run.id);
    await runs.idle();
    expect(await evals.readScores(started.run.id)).toEqual([]);
    await runs.close({ timeoutMs: 100 });
    await evals.close();
  });
});

describe('otelScoreExporter', () => {
  it('exports a scored run as a thinkflow.scores span with one event per scorer', () => {
    const memory = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
    const exporter = otelScoreExporter(provider.getTracer('test'));
    exporter({
      runId: 'r1',
      agent: 'helper',
      scores: [
        { name: 'contains', score: 1, pass: true, ms: 1 },
        { name: 'judge', score: 0, pass: false, error: 'unreadable reply' },
      ],
    });
    const [span] = memory.getFinishedSpans();
    expect(span.name).toBe('thinkflow.scores');
    expect(span.attributes).toMatchObject({
      'thinkflow.run_id': 'r1',
      'gen_ai.agent.name': 'helper',
      'thinkflow.score.contains': 1,
      'thinkflow.score.judge': 0,
    });
    expect(span.events.map((e) => e.attributes)).toEqual([
      {
        'thinkflow.score.name': 'contains',
        'thinkflow.score.value': 1,
        'thinkflow.score.pass': true,
        'thinkflow.score.ms': 1,
      },
      {
        'thinkflow.score.name': 'judge',
        'thinkflow.score.value': 0,
        'thinkflow.score.pass': false,
        'thinkflow.score.error': 'unreadable reply',
      },
    ]);
    expect(span.status.code).toBe(2);
  });
});
