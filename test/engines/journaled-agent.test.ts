import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { codeMode } from '../../src/code/index.js';
import { type JournalRecord, memoryJournal, runJournaled } from '../../src/entries/engines.js';
import {
  Agent,
  type AgentEvent,
  askUserTool,
  defineTool,
  type ModelRequest,
  RetryableToolError,
  scriptedModel,
} from '../../src/index.js';

function setup() {
  const ran: string[] = [];
  const tool = (name: string, extra: { idempotent?: boolean; needsApproval?: boolean } = {}) =>
    defineTool({
      name,
      description: name,
      input: z.object({ label: z.string() }),
      ...extra,
      run: ({ label }) => {
        ran.push(label);
        if (label === 'boom') throw new Error('boom failed');
        return `did ${label}`;
      },
    });
  const effect = tool('effect');
  const tools = [
    effect,
    tool('again', { idempotent: true }),
    tool('guarded', { needsApproval: true }),
    codeMode([effect]),
  ];
  // One tool call per step, named by the input: `effect:a,again:b` calls effect(a) then again(b).
  const reply = (request: ModelRequest) => {
    const input = String(request.messages.find((m) => m.role === 'user')?.content);
    const done = request.messages.filter((m) => m.role === 'tool').length;
    const next = input.split(',')[done];
    if (!next) return `finished after ${done}`;
    const name = next.slice(0, next.indexOf(':'));
    const label = next.slice(name.length + 1);
    const args = name === 'run_code' ? { code: label } : name === 'ask_user' ? { question: label } : { label };
    return { text: '', toolCalls: [{ id: `c${done}`, name, arguments: JSON.stringify(args) }] };
  };
  const model = scriptedModel(reply);
  return { ran, model, agent: new Agent({ model, tools }) };
}

describe('runJournaled', () => {
  it('records each model and tool call as a step; a replay runs none of them and ends the same', async () => {
    const { ran, model, agent } = setup();
    const first = memoryJournal();
    const result = await runJournaled(agent, 'effect:a,again:b', first, { runId: 'r1' });
    expect(result.output).toBe('finished after 2');
    const steps = first.records.filter((r) => r.type === 'step').map((r) => `${r.step.kind}:${r.step.name}`);
    expect(steps).toEqual([
      'model:scripted',
      'tool:effect:start',
      'tool:effect',
      'model:scripted',
      'tool:again',
      'model:scripted',
    ]);

    const replay = await runJournaled(agent, 'effect:a,again:b', memoryJournal({ records: first.records }), {
      runId: 'r1',
    });
    expect(replay.output).toBe('finished after 2');
    expect(ran).toEqual(['a', 'b']);
    expect(model.calls).toHaveLength(3);
  });

  it("journals the agent's tools as they are at the run, added ones included", async () => {
    const { ran, agent } = setup();
    agent.tools.register(
      defineTool({
        name: 'late',
        description: 'late',
        input: z.object({ label: z.string() }),
        idempotent: true,
        run: ({ label }) => {
          ran.push(label);
          return label;
        },
      }),
    );
    const first = memoryJournal();
    await runJournaled(agent, 'late:l', first, { runId: 'r1' });
    await runJournaled(agent, 'late:l', memoryJournal({ records: first.records }), { runId: 'r1' });
    expect(first.records.some((r) => r.type === 'step' && r.step.name === 'late')).toBe(true);
    expect(ran).toEqual(['l']);
  });

  it('a failed tool call is journaled as failed and replayed as the same observation, without running', async () => {
    const { ran, agent } = setup();
    const first = memoryJournal();
    const result = await runJournaled(agent, 'effect:boom', first, { runId: 'r1' });
    const replay = await runJournaled(agent, 'effect:boom', memoryJournal({ records: first.records }), { runId: 'r1' });
    expect(replay.steps[0].toolCalls[0].output).toBe(result.steps[0].toolCalls[0].output);
    expect(replay.steps[0].toolCalls[0].output).toContain('boom failed');
    expect(ran).toEqual(['boom']);
  });

  it('a call cut off by a crash runs again only if its tool is idempotent', async () => {
    const { ran, agent } = setup();
    const first = memoryJournal();
    await runJournaled(agent, 'effect:a,again:b', first, { runId: 'r1' });
    // The records as a crash during each call would have left them: its step started, not ended.
    const cutAt = (name: string): JournalRecord[] => {
      const at = first.records.findIndex((r) => r.type === 'step' && r.step.name === name);
      const record = first.records[at];
      return [
        ...first.records.slice(0, at),
        { type: 'step', step: record.type === 'step' ? record.step : { kind: 'tool', name }, state: 'started' },
      ];
    };
    ran.length = 0;
    const effect = await runJournaled(agent, 'effect:a,again:b', memoryJournal({ records: cutAt('effect') }), {
      runId: 'r1',
    });
    expect(effect.steps[0].toolCalls[0].output).toContain('interrupted by a restart');
    expect(ran).toEqual(['b']);
    ran.length = 0;
    const again = await runJournaled(agent, 'effect:a,again:b', memoryJournal({ records: cutAt('again') }), {
      runId: 'r1',
    });
    expect(again.steps[1].toolCalls[0].output).toBe('did b');
    expect(ran).toEqual(['b']);
  });

  it('an approval is a durable answer: announced with its id, resolved from outside, replayed without asking', async () => {
    const { ran, agent } = setup();
    const journal = memoryJournal();
    const announced: string[] = [];
    const running = runJournaled(agent, 'guarded:g', journal, {
      runId: 'r1',
      onPending: (p) => {
        announced.push(`${p.kind} ${p.tool} ${p.answerId}`);
        journal.resolve(p.answerId, { approved: true });
      },
    });
    expect((await running).output).toBe('finished after 1');
    expect(announced).toEqual(['approval guarded approval:0/c0']);
    const again: string[] = [];
    const replay = memoryJournal({ records: journal.records });
    await runJournaled(agent, 'guarded:g', replay, { runId: 'r1', onPending: (p) => again.push(p.answerId) });
    expect(again).toEqual([]);
    expect(ran).toEqual(['g']);
  });

  it("code mode's nested calls are steps, the program is not, and its seed is journaled", async () => {
    const { ran, agent } = setup();
    const code = "await tools.effect({ label: 'x' }); await tools.effect({ label: 'y' }); return Math.random();";
    const first = memoryJournal();
    const result = await runJournaled(agent, `run_code:${code}`, first, { runId: 'r1' });
    const names = first.records.flatMap((r) => (r.type === 'step' ? [r.step.name] : [r.type]));
    expect(names).toEqual(['scripted', 'seed', 'now', 'effect:start', 'effect', 'effect:start', 'effect', 'scripted']);
    const replay = await runJournaled(agent, `run_code:${code}`, memoryJournal({ records: first.records }), {
      runId: 'r1',
    });
    expect(replay.steps[0].toolCalls[0].output).toBe(result.steps[0].toolCalls[0].output);
    expect(ran).toEqual(['x', 'y']);
  });

  it('each tool call is one step keyed by its step and call, its retries inside it', async () => {
    let attempts = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'fails once',
      input: z.object({ label: z.string() }),
      idempotent: true,
      retries: 1,
      run: ({ label }) => {
        attempts++;
        if (attempts === 1) throw new RetryableToolError('busy');
        return label;
      },
    });
    const { model } = setup();
    const agent = new Agent({ model, tools: [flaky] });
    const first = memoryJournal();
    const result = await runJournaled(agent, 'flaky:a,flaky:b', first, { runId: 'r1' });
    const tools = first.records.flatMap((r) => (r.type === 'step' && r.step.kind === 'tool' ? [r] : []));
    expect(tools.map((r) => `${r.step.name} ${r.step.key}`)).toEqual(['flaky 0/c0', 'flaky 1/c1']);
    expect(result.steps[0].toolCalls[0]).toMatchObject({ ok: true, output: 'a', attempts: 2 });
    const replay = await runJournaled(agent, 'flaky:a,flaky:b', memoryJournal({ records: first.records }), {
      runId: 'r1',
    });
    expect(replay.steps[0].toolCalls[0]).toMatchObject({ ok: true, output: 'a', attempts: 2 });
    expect(attempts).toBe(3);
  });

  it('ask_user is a durable wait, not a step: asked through the journal, answered from outside', async () => {
    const { model } = setup();
    const agent = new Agent({ model, tools: [askUserTool] });
    const journal = memoryJournal();
    const pending: string[] = [];
    const result = await runJournaled(agent, 'ask_user:which city?', journal, {
      runId: 'r1',
      onPending: (p) => {
        pending.push(`${p.kind} ${p.answerId}`);
        journal.resolve(p.answerId, 'Paris');
      },
    });
    expect(pending).toEqual(['question question:0/c0']);
    expect(result.steps[0].toolCalls[0].output).toBe('Paris');
    expect(journal.records.map((r) => (r.type === 'step' ? r.step.kind : r.type))).toEqual([
      'model',
      'answer',
      'model',
    ]);
  });

  it('a replay sends no event of its replayed part again; the events after it go out once, numbered as the first time', async () => {
    const { agent } = setup();
    const first = memoryJournal();
    const seen: [string, number][] = [];
    await runJournaled(agent, 'effect:a,again:b', first, {
      runId: 'r1',
      onEvent: (e, m) => seen.push([e.type, m.seq]),
    });
    // The records as a crash during the second tool call left them: its step started, not ended.
    const at = first.records.findIndex((r) => r.type === 'step' && r.step.name === 'again');
    const cut: JournalRecord[] = [...first.records.slice(0, at)];
    const again: [string, number][] = [];
    const events: AgentEvent[] = [];
    await runJournaled(agent, 'effect:a,again:b', memoryJournal({ records: cut }), {
      runId: 'r1',
      onEvent: (e, m) => {
        again.push([e.type, m.seq]);
        events.push(e);
      },
    });
    // Nothing up to the last replayed step (the second model call) comes again; from there on, each event
    // once, numbered as before.
    const from = seen.findIndex(
      ([type], i) => type === 'model_response' && i > seen.findIndex(([t]) => t === 'tool_end'),
    );
    expect(again).toEqual(seen.slice(from));
    expect(events.filter((e) => e.type === 'tool_start').map((e) => (e.type === 'tool_start' ? e.tool : ''))).toEqual([
      'again',
    ]);
  });

  it('a replay that takes another path fails at the step where it diverged, naming both', async () => {
    const { agent, model } = setup();
    const first = memoryJournal();
    await runJournaled(agent, 'again:a', first, { runId: 'r1' });
    // The code changed between the runs: the tool is no longer idempotent, so its call now starts with a `:start` step.
    const changed = new Agent({
      model,
      tools: [
        defineTool({ name: 'again', description: 'again', input: z.object({ label: z.string() }), run: () => 'x' }),
      ],
    });
    const result = await runJournaled(changed, 'again:a', memoryJournal({ records: first.records }), { runId: 'r1' });
    expect(result.steps[0].toolCalls[0].output).toContain(
      'The run diverged from its journal at entry 2: step 0/c0 (again), now 0/c0:start (again:start).',
    );
  });
});
