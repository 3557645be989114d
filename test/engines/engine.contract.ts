import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lines } from '../server/server-fixtures.js';
import { eventually } from './engine-processes.js';

/** How a run ended, as each engine reports it. */
export interface EngineResult {
  status: string;
  output: string;
}

/** What the conformance suite needs from an engine: start its workers, start and steer runs. */
export interface EngineHarness {
  name: string;
  /** Starts the engine (its servers, a fresh database) for this file; `dir` is a fresh temp folder. */
  setup(dir: string): Promise<void>;
  teardown(): Promise<void>;
  /** Starts a worker process with these environment variables (COUNT_FILE, BLOCK_LABEL, MODEL_URL). */
  startWorker(env: Record<string, string>): Promise<{ kill(): Promise<void> }>;
  start(agent: 'conformance' | 'flaky', input: string, options?: { thread?: string }): Promise<string>;
  /** Waits for the run to end. */
  result(runId: string): Promise<EngineResult>;
  /** Waits until the run waits for an approval, and resolves with the id that answers it. */
  pending(runId: string): Promise<string>;
  approve(runId: string, answerId: string): Promise<void>;
  cancel(runId: string): Promise<void>;
  /** Waits for a cancelled run to end, and says whether the engine reports it cancelled. */
  cancelled(runId: string): Promise<boolean>;
  /** The names of the run's journaled steps, `tool:<name>` for tool calls. */
  steps(runId: string): Promise<string[]>;
  /** The run's events as they went out, each with its place in the run (`seq`). */
  events(runId: string): Promise<{ seq: number; type: string; callId?: string }[]>;
}

/** An OpenAI chat-completions server whose replies fail with 500 as the input says: `fail-once`, `fail-always`. */
function flakyModelServer() {
  const hits: Record<string, number> = {};
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const input = body.includes('fail-always') ? 'fail-always' : 'fail-once';
      hits[input] = (hits[input] ?? 0) + 1;
      if (input === 'fail-always' || hits[input] === 1) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      const message = { role: 'assistant', content: 'flaky ok' };
      const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
      res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          choices: [{ index: 0, message, finish_reason: 'stop' }],
          usage,
        }),
      );
    });
  });
  return { server, hits };
}

/**
 * The conformance suite every engine runs: kill -9 between two tool calls, an approval pending across
 * a restart, cancel, a 100-step run, a failing model call retried once, code mode's nested calls as
 * steps, and two runs on one thread in order. Side effects are counted in a file, outside the workers.
 */
export function runEngineContract(harness: EngineHarness): void {
  describe(`${harness.name} engine conformance`, () => {
    let dir: string;
    let env: Record<string, string>;
    let model: { server: Server; hits: Record<string, number> };
    const counted = (label: string) => lines(env.COUNT_FILE).filter((l) => l === label).length;
    // Every worker a test starts is killed after it, whatever the test did.
    const workers: { kill(): Promise<void> }[] = [];
    const worker = async (vars: Record<string, string>) => {
      const started = await harness.startWorker(vars);
      workers.push(started);
      return started;
    };
    afterEach(async () => {
      for (const w of workers.splice(0)) await w.kill();
    });

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), `engine-${harness.name}-`));
      model = flakyModelServer();
      await new Promise<void>((resolve) => model.server.listen(0, '127.0.0.1', resolve));
      const { port } = model.server.address() as { port: number };
      env = {
        COUNT_FILE: join(dir, 'count.txt'),
        EVENTS_FILE: join(dir, 'events.jsonl'),
        MODEL_URL: `http://127.0.0.1:${port}/v1`,
      };
      await harness.setup(dir);
    }, 120_000);

    afterAll(async () => {
      await harness.teardown();
      model.server.close();
      rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    it('kill -9 twice: the run finishes, a finished call never runs again, a cut-off one again only if idempotent', async () => {
      const first = await worker({ ...env, BLOCK_LABELS: 'b' });
      const runId = await harness.start('conformance', 'kill');
      const started = (label: string) => () => (lines(env.COUNT_FILE).includes(`start ${label}`) ? true : undefined);
      await eventually(started('b'), 60_000);
      // c (beside b) ended and its record is written (its tool_end goes out after the record): killed any
      // earlier, c would be cut off between its effect and its record, and run again as idempotent calls are.
      const ended = (callId: string) => async () =>
        (await harness.events(runId)).some((e) => e.type === 'tool_end' && e.callId === callId) ? true : undefined;
      await eventually(ended('call-1-1'), 60_000);
      await first.kill();
      const second = await worker({ ...env, BLOCK_LABELS: 'd' });
      await eventually(started('d'), 60_000);
      await second.kill();
      await worker(env);
      expect(await harness.result(runId)).toMatchObject({ status: 'done', output: 'kill done' });
      // a and c ended before a crash: once each. b (not idempotent) was cut off: never run again, the model
      // is told. d (idempotent) was cut off: run again, once.
      const runs = ['a', 'c', 'start b', 'b', 'start d', 'd'].map(counted);
      expect(runs).toEqual([1, 1, 1, 0, 1, 1]);
      // The events went out as they happened, and the two replays sent none of the replayed part again:
      // the first call's events came once; an event that came twice (a step's tail cut off by a kill) has the same seq.
      const events = await eventually(async () => {
        const all = await harness.events(runId);
        return all.some((e) => e.type === 'run_end') ? all : undefined;
      });
      const callA = events.filter((e) => e.callId === 'call-0-0').map((e) => e.type);
      expect(callA).toEqual(['tool_start', 'tool_end']);
      const bySeq = new Map<number, { type: string; callId?: string }>();
      for (const e of events) {
        expect(bySeq.get(e.seq)?.type ?? e.type).toBe(e.type);
        bySeq.set(e.seq, e);
      }
      // Deduplicated by seq: every call ended once, and nothing is missing.
      const ends = [...bySeq.values()].filter((e) => e.type === 'tool_end').map((e) => e.callId);
      expect(ends.sort()).toEqual(['call-0-0', 'call-1-0', 'call-1-1', 'call-3-0']);
      const seqs = [...bySeq.keys()].sort((x, y) => x - y);
      expect(seqs.at(-1)! - seqs[0] + 1).toBe(seqs.length);
    }, 180_000);

    it('an approval pending across a restart: approved after it, the call runs once', async () => {
      const first = await worker(env);
      const runId = await harness.start('conformance', 'approval');
      await harness.pending(runId);
      await first.kill();
      await worker(env);
      const answerId = await harness.pending(runId);
      await harness.approve(runId, answerId);
      expect(await harness.result(runId)).toMatchObject({ status: 'done', output: 'guarded done' });
      expect(counted('guarded approval')).toBe(1);
    }, 120_000);

    describe('on one worker', () => {
      let shared: { kill(): Promise<void> } | undefined;
      beforeAll(async () => {
        shared = await harness.startWorker(env);
      }, 60_000);
      afterAll(() => shared?.kill());

      it('cancel ends a run waiting for approval, and its call never runs', async () => {
        const runId = await harness.start('conformance', 'cancel');
        await harness.pending(runId);
        await harness.cancel(runId);
        expect(await harness.cancelled(runId)).toBe(true);
        expect(counted('guarded cancel')).toBe(0);
      }, 60_000);

      it('a 100-step run finishes', async () => {
        const runId = await harness.start('conformance', 'hundred');
        expect(await harness.result(runId)).toMatchObject({ status: 'done', output: 'hundred done' });
      }, 120_000);

      it('a failing model call is retried once, by thinkflow alone', async () => {
        const once = await harness.start('flaky', 'fail-once');
        expect(await harness.result(once)).toMatchObject({ status: 'done', output: 'flaky ok' });
        expect(model.hits['fail-once']).toBe(2);
        const always = await harness.start('flaky', 'fail-always');
        expect((await harness.result(always)).status).toBe('failed');
        // The engine does not retry the failed step on top: two attempts, then never again.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(model.hits['fail-always']).toBe(2);
      }, 60_000);

      it("code mode's nested calls are journaled as steps, each run once", async () => {
        const runId = await harness.start('conformance', 'code');
        expect(await harness.result(runId)).toMatchObject({ status: 'done', output: 'code done' });
        expect((await harness.steps(runId)).filter((s) => s === 'tool:effect')).toHaveLength(2);
        expect([counted('c1'), counted('c2')]).toEqual([1, 1]);
      }, 60_000);

      it('two runs on one thread run in order, the second seeing the first', async () => {
        const one = await harness.start('conformance', 'thread-1', { thread: 't1' });
        const two = await harness.start('conformance', 'thread-2', { thread: 't1' });
        expect(await harness.result(one)).toMatchObject({ status: 'done', output: 'thread-1 turn 1' });
        expect(await harness.result(two)).toMatchObject({ status: 'done', output: 'thread-2 turn 2' });
        expect(lines(env.COUNT_FILE).filter((l) => l.startsWith('thread'))).toEqual(['thread-1', 'thread-2']);
      }, 60_000);
    });
  });
}
