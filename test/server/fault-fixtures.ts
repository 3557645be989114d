import { z } from 'zod';
import { Agent } from '../../src/agent/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import {
  createApp,
  createQueueRuns,
  createRunWorker,
  PostgresRunStore,
  type RunRecord,
  type RunWorker,
} from '../../src/server/index.js';
import { defineTool } from '../../src/tools/index.js';
import { uniqueName } from './pg-fixtures.js';

// Five calls per run, alternating a not-idempotent tool and an idempotent one, each logging its effect.
const PLAN = ['effect', 'lookup', 'effect', 'lookup', 'effect'] as const;

/** An agent factory whose runs make five calls (`effect` not idempotent, `lookup` idempotent), logging each to `effects`. */
export function effectsAgent(options: { effects: { push(label: string): unknown }; delayMs: number }) {
  const tool = (name: 'effect' | 'lookup') =>
    defineTool({
      name,
      description: `Logs its ${name}.`,
      input: z.object({ label: z.string() }),
      idempotent: name === 'lookup',
      run: async ({ label }) => {
        await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        options.effects.push(label);
        return `${label} ok`;
      },
    });
  return () =>
    new Agent({
      name: 'effects',
      model: scriptedModel((request) => {
        const input = String(request.messages.find((m) => m.role === 'user')?.content ?? '');
        const done = request.messages.filter((m) => m.role === 'tool').length;
        if (done >= PLAN.length) return `${input} finished`;
        const name = PLAN[done];
        return {
          text: '',
          toolCalls: [{ id: `c${done}`, name, arguments: JSON.stringify({ label: `${input}/${done}:${name}` }) }],
        };
      }),
      tools: [tool('effect'), tool('lookup')],
    });
}

/** Every effect label each run should log once, for `runs` inputs. */
export function expectedEffects(inputs: readonly string[]): string[] {
  return inputs.flatMap((input) => PLAN.map((name, i) => `${input}/${i}:${name}`)).sort();
}

/** Tool results that claim a call was interrupted (a finished call misreported). */
export function interruptedCalls(runs: readonly (RunRecord | undefined)[]): string[] {
  return runs.flatMap((run) =>
    (run?.result?.steps ?? []).flatMap((step) =>
      step.toolCalls
        .filter((call) => /interrupted/i.test(JSON.stringify(call.output ?? call.error ?? '')))
        .map((c) => c.id),
    ),
  );
}

/** An API server (in this process) and workers over one Redis and one PostgreSQL, as `serve --queue` and `thinkflow worker` build them. */
export async function queueCluster(options: {
  redisUrl: string;
  pg: string;
  agents: Parameters<typeof createRunWorker>[0]['agents'];
  workers?: number;
  concurrency?: number;
  errors?: string[];
  /** Join an existing deployment's schema and queue (default: new ones). */
  schema?: string;
  queueName?: string;
  prefix?: string;
}) {
  const schema = options.schema ?? uniqueName('tf_fault');
  const location = {
    redisUrl: options.redisUrl,
    queueName: options.queueName ?? uniqueName('runs'),
    prefix: options.prefix ?? uniqueName('tf'),
  };
  const onError = (error: unknown) => options.errors?.push(String(error));
  const recovered = { runs: 0 };
  const apiStore = new PostgresRunStore({ connectionString: options.pg, schema, connectTimeoutMs: 1000 });
  await apiStore.init();
  const runs = createQueueRuns({
    ...location,
    agents: Object.keys(options.agents),
    store: apiStore,
    pollMs: 50,
    recoveryIntervalMs: 1000,
    redisTimeoutMs: 1000,
    onError,
    onRecovered: (n) => {
      recovered.runs += n;
    },
  });
  const app = createApp({ runs, onError });
  const workers: RunWorker[] = [];
  const stores: PostgresRunStore[] = [apiStore];
  for (let i = 0; i < (options.workers ?? 1); i++) {
    const store = new PostgresRunStore({ connectionString: options.pg, schema, connectTimeoutMs: 1000 });
    stores.push(store);
    workers.push(
      createRunWorker({
        ...location,
        agents: options.agents,
        store,
        concurrency: options.concurrency ?? 4,
        pollMs: 100,
        lockDurationMs: 5000,
        onError,
      }),
    );
  }
  return {
    schema,
    location,
    /** How many runs the reconciler re-enqueued. */
    recovered,
    runs,
    store: apiStore,
    request: (path: string, init?: RequestInit) => app.fetch(new Request(`http://localhost${path}`, init)),
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      await runs.close();
      await apiStore.drop().catch(() => {});
      await Promise.all(stores.map((s) => s.close().catch(() => {})));
    },
  };
}

/** Polls the store until every run ended, riding out errors while a dependency is down; the runs as they ended. */
export async function allEnded(
  store: PostgresRunStore,
  ids: readonly string[],
  timeoutMs: number,
): Promise<RunRecord[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const runs = await store.getRuns(ids).catch(() => []);
    const ended = runs.filter((run) => !['queued', 'running', 'waiting'].includes(run.status));
    if (ended.length === ids.length) return runs;
    if (Date.now() > deadline) {
      const open = runs.filter((run) => !ended.includes(run)).map((run) => `${run.id}:${run.status}`);
      throw new Error(
        `${ids.length - ended.length} run(s) did not end within ${timeoutMs} ms: ${open.slice(0, 10).join(', ')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
