import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bootstrapMean,
  compareExperiments,
  contains,
  createScorer,
  exact,
  loadExperiment,
  noError,
  passAtK,
  passHatK,
  readExperimentJson,
  rescore,
  runExperiment,
  SqliteExperimentStore,
  toolCalls,
  traceItems,
  writeExperimentJson,
} from '../../../src/eval/index.js';
import { Agent, calculatorTool, scriptedModel } from '../../../src/index.js';

describe('runExperiment', () => {
  it('runs an Agent per case and records scores, status, steps, calls, tokens, latency and run id', async () => {
    const model = scriptedModel((request) => {
      const last = JSON.stringify(request.messages.at(-1));
      if (last.includes('"role":"tool"'))
        return { text: 'The answer is 4.', usage: { promptTokens: 30, completionTokens: 5 } };
      return {
        text: '',
        toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"2+2"}' }],
        usage: { promptTokens: 20, completionTokens: 8 },
      };
    });
    const agent = new Agent({ model, tools: [calculatorTool], streaming: false });
    const experiment = await runExperiment({
      name: 'arith',
      data: [
        { id: 'add', input: 'What is 2+2?', expected: '4' },
        { id: 'wrong', input: 'What is 2+3?', expected: '5' },
      ],
      task: agent,
      scorers: [contains(), noError(), toolCalls([{ calculator: { expression: ['2+2'] } }])],
    });
    expect(experiment.summary).toMatchObject({ cases: 2, trials: 2, passed: 1, passRate: 0.5, steps: 4, llmCalls: 4 });
    expect(experiment.summary.promptTokens).toBe(100);
    expect(experiment.summary.scorers.contains.mean).toBe(0.5);
    expect(experiment.summary.scorers.noError.mean).toBe(1);
  });

  it('gives pass@k and pass^k from trials, and scorer means with a seeded bootstrap interval', async () => {
    // Case a passes 2 of 3 trials, case b 0 of 3, case c 3 of 3.
    const plan: Record<string, boolean[]> = { a: [true, false, true], b: [false, false, false], c: [true, true, true] };
    const experiment = await runExperiment({
      name: 'flaky',
      data: ['a', 'b', 'c'].map((id) => ({ id, input: id })),
      task: (input, ctx) => (plan[input as string][ctx.trial] ? 'yes' : 'no'),
      scorers: [exact('yes')],
      trials: 3,
      concurrency: 3,
    });
    const s = experiment.summary;
    expect(s.trials).toBe(9);
    expect(s.passAtK[1]).toBeCloseTo((2 / 3 + 0 + 1) / 3);
    expect(s.passAtK[3]).toBeCloseTo((1 + 0 + 1) / 3);
    expect(s.passHatK[3]).toBeCloseTo((0 + 0 + 1) / 3);
    expect(s.passHatK[2]).toBeCloseTo((passHatK(3, 2, 2) + 0 + 1) / 3);
    expect(passAtK(3, 2, 2)).toBe(1);
    expect(s.scorers.exact.mean).toBeCloseTo(5 / 9);
    expect(s.scorers.exact.low).toBeLessThanOrEqual(s.scorers.exact.mean);
    expect(s.scorers.exact.high).toBeGreaterThanOrEqual(s.scorers.exact.mean);
    expect(bootstrapMean([0, 1, 1, 0, 1], { seed: 1 })).toEqual(bootstrapMean([0, 1, 1, 0, 1], { seed: 1 }));
  });

  it("takes a trial's latency from its run, and times a wrapper whose runs have no durationMs from its first trial", async () => {
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const run = {
      runId: 'r',
      status: 'done' as const,
      output: 'ok',
      steps: [],
      usage: { promptTokens: 1, completionTokens: 1, llmCalls: 1 },
    };
    const timed = { run: async () => ({ ...run, usage: { ...run.usage }, durationMs: 7 }) };
    // A JavaScript wrapper leaving durationMs out: every trial is timed, the first one too.
    const untimed = {
      run: async () => {
        await wait(25);
        return { ...run };
      },
    } as unknown as typeof timed;
    const data = [{ input: 'a' }, { input: 'b' }, { input: 'c' }];
    const latencies = async (task: typeof timed) => {
      const experiment = await runExperiment({ name: 'latency', data, task, scorers: [noError()], concurrency: 1 });
      const out: number[] = [];
      for await (const t of experiment.trials) out.push(t.latencyMs);
      return out;
    };
    expect(await latencies(timed)).toEqual([7, 7, 7]);
    const untimedLatencies = await latencies(untimed);
    expect(untimedLatencies).toHaveLength(3);
    for (const latency of untimedLatencies) expect(latency).toBeGreaterThanOrEqual(20);
    // Agent-shaped (its options hold a model) but its runs without durationMs: timed once that shows.
    const agentShaped = { ...untimed, options: { model: { generate: async () => ({ text: '' }) } } };
    const [first, ...rest] = await latencies(agentShaped);
    expect(first).toBeLessThan(20);
    for (const latency of rest) expect(latency).toBeGreaterThanOrEqual(20);
  });

  it('records a task that throws as a failed trial and a scorer that throws as that scorer error', async () => {
    const flaky = createScorer({
      name: 'picky',
      score: ({ output }) => {
        if (output === 'b') throw new Error('cannot score b');
        return 1;
      },
    });
    const experiment = await runExperiment({
      name: 'errors',
      data: [{ input: 'a' }, { input: 'b' }, { input: 'boom' }],
      task: (input) => {
        if (input === 'boom') throw new Error('task exploded');
        return String(input);
      },
      scorers: [flaky],
    });
    expect(experiment.summary).toMatchObject({ trials: 3, passed: 1, errors: 1 });
    expect(experiment.summary.scorers.picky.errors).toBe(2);
  });

  it('fails a trial whose task answered neither text nor a run, with what it returned, and goes on', async () => {
    const agent = new Agent({ model: scriptedModel(['fine']) });
    const answers: Record<string, unknown> = {
      nothing: undefined,
      null: null,
      agent,
      number: 42,
      object: { answer: 'Paris' },
      partial: { output: 'partial' }, // a run of one's own, without steps or usage
      text: 'text',
    };
    const experiment = await runExperiment({
      name: 'answers',
      data: Object.keys(answers).map((input) => ({ input })),
      task: async (input) => answers[input as string] as string,
      scorers: [noError()],
      concurrency: 1,
    });
    const trials: Record<string, { status: string; pass: boolean; error?: string; steps: number }> = {};
    for await (const t of experiment.trials) trials[t.input as string] = t;
    expect(experiment.summary).toMatchObject({ trials: 7, errors: 5 });
    expect(trials.nothing.error).toMatch(/^the task returned undefined: a task returns the answer text or a run/);
    expect(trials.null.error).toMatch(/^the task returned null:/);
    expect(trials.agent.error).toMatch(/an agent rather than its run: pass the agent itself as `task`/);
    expect(trials.number.error).toMatch(/^the task returned a number \(42\)/);
    expect(trials.object.error).toContain('an object without an `output` text ({"answer":"Paris"})');
    expect(trials.partial).toMatchObject({ status: 'done', pass: false, steps: 0 });
    expect(trials.text).toMatchObject({ status: 'done', pass: true });
  });

  it('names an experiment by its name in any language (once every Chinese name read as "_")', async () => {
    const run = (name: string) => runExperiment({ name, data: [{ input: 'a' }], task: () => 'a', scorers: [] });
    expect((await run('首都测验')).meta.id).toMatch(/^首都测验-\d{4}-\d\d-\d\dT/);
    expect((await run('support bot: v2')).meta.id).toMatch(/^support_bot_v2-\d{4}-/);
  });

  it('keeps every trial in SQLite and writes and reads the experiment as JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exp-'));
    const store = new SqliteExperimentStore({ file: join(dir, 'thinkflow.db') });
    const progress: number[] = [];
    const experiment = await runExperiment({
      name: 'stored',
      id: 'stored-1',
      data: [
        { input: 'x', expected: 'x' },
        { input: 'y', expected: 'z' },
      ],
      task: (input) => String(input),
      scorers: [exact()],
      store,
      onProgress: (p) => progress.push(p.done),
    });
    expect(progress.sort()).toEqual([1, 2]);
    const loaded = await loadExperiment(store, 'stored-1');
    expect(loaded.meta).toMatchObject({ name: 'stored', status: 'done', cases: 2, scorers: ['exact'] });
    await writeExperimentJson(loaded, join(dir, 'exp.json'));
    const read = readExperimentJson(join(dir, 'exp.json'));
    expect(read.summary).toEqual(experiment.summary);
    expect([...(read.trials as Iterable<{ output: string }>)].map((t) => t.output)).toEqual(['x', 'y']);
    expect(JSON.parse(readFileSync(join(dir, 'exp.json'), 'utf8')).trials).toHaveLength(2);
    expect((await store.listExperiments()).map((m) => m.id)).toEqual(['stored-1']);
    await store.close();
  });

  it('rescores a run from its trace file offline, with no model call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trace-'));
    const model = scriptedModel([
      { text: '', toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }] },
      'It is 42.',
    ]);
    await new Agent({ model, tools: [calculatorTool], streaming: false, traceFile: join(dir, 'run.jsonl') }).run(
      '6 times 7?',
    );
    const calls = model.calls.length;
    const results = [];
    for await (const r of rescore(traceItems([join(dir, 'run.jsonl')]), [
      noError(),
      contains('42'),
      toolCalls([{ name: 'calculator', arguments: { expression: ['6 * 7'] } }]),
    ])) {
      results.push(r);
    }
    expect(model.calls.length).toBe(calls);
    expect(results[0].scores.map((s) => [s.name, s.pass])).toEqual([
      ['noError', true],
      ['contains', true],
      ['toolCalls', true],
    ]);
  });

  it('returns its trials, read from its store: in memory, from a SQLite path it opened again, ready to compare', async () => {
    const data = ['a', 'b', 'c'].map((id) => ({ id, input: id, expected: 'yes' }));
    const scorers = [exact()];
    const before = await runExperiment({ name: 'before', data, task: () => 'yes', scorers, trials: 2 });
    const read = async (trials: AsyncIterable<{ caseId: string; trial: number; pass: boolean }>) => {
      const out: string[] = [];
      for await (const t of trials) out.push(`${t.caseId}${t.trial}${t.pass ? '+' : '-'}`);
      return out;
    };
    expect(await read(before.trials)).toEqual(['a0+', 'a1+', 'b0+', 'b1+', 'c0+', 'c1+']);
    // Read again: each iteration reads the store anew.
    expect((await read(before.trials)).length).toBe(6);
    // Not part of the experiment's JSON.
    expect(Object.keys(JSON.parse(JSON.stringify(before)))).toEqual(['meta', 'summary']);

    const file = join(mkdtempSync(join(tmpdir(), 'exp-trials-')), 'thinkflow.db');
    const after = await runExperiment({
      name: 'after',
      data,
      task: (input) => (input === 'b' ? 'no' : 'yes'),
      scorers,
      trials: 2,
      store: file,
    });
    expect(await read(after.trials)).toEqual(['a0+', 'a1+', 'b0-', 'b1-', 'c0+', 'c1+']);
    const comparison = await compareExperiments(before, after, { maxBroken: 0 });
    expect(comparison.verdict).toBe('regression');
    expect(comparison.broken).toEqual(['b']);
  });

  it('refuses an agent name outside the CLI, naming the fix', async () => {
    await expect(runExperiment({ name: 'x', data: [{ input: 'a' }], task: 'support', scorers: [] })).rejects.toThrow(
      /thinkflow eval run/,
    );
  });
});
