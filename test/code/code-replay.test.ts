import { describe, expect, it } from 'vitest';
import { Agent, type Checkpoint } from '../../src/agent/index.js';
import { codeMode } from '../../src/code/index.js';
import { emptyStats } from '../../src/core/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import type { NestedJournal } from '../../src/tools/index.js';
import { priceTools } from './code-helpers.js';

/** A checkpoint of a run stopped inside its `run_code` call `prog`, with what the program recorded. */
function stoppedInside(code: string, nested: NestedJournal): Checkpoint {
  return {
    runId: 'run-replay',
    input: 'go',
    steps: [],
    usage: { promptTokens: 0, completionTokens: 0, llmCalls: 1 },
    stats: emptyStats(),
    pending: {
      index: 0,
      raw: '',
      calls: [{ id: 'prog', name: 'run_code', input: { code } }],
      done: [],
      nested: { prog: nested },
    },
  };
}

const ended = (item: string, usd: number) => ({
  id: `prog.${item}`,
  name: 'price',
  input: { item },
  state: 'ended' as const,
  ok: true,
  value: { item, usd },
});

describe('a program run again after a restart', () => {
  it('answers the calls that ended from the journal, runs the rest, and replays the seeded random and clock', async () => {
    const { price, seen } = priceTools();
    const code = `const a = await tools.price({ item: "apple" });
const b = await tools.price({ item: "fig" });
return [a.usd, b.usd, Math.random(), Date.now()];`;
    const journal: NestedJournal = { seed: 42, clock: 1_700_000_000_000, calls: [ended('apple', 99)] };
    const agent = new Agent({ model: scriptedModel(['All done.']), tools: [codeMode([price])] });
    const result = await agent.run('go', { resume: stoppedInside(code, journal), runId: 'run-replay' });
    expect(result.status).toBe('done');
    expect(seen).toEqual(['fig']);
    const output = result.steps[0].toolCalls[0].output;
    const [apple, fig, random, now] = JSON.parse(output.replace('Returned: ', '')) as number[];
    expect([apple, fig, now]).toEqual([99, 3, 1_700_000_000_000]);
    // The same seed draws the same number in a fresh run of the same program.
    const again = await agent.run('go', { resume: stoppedInside(code, journal), runId: 'run-replay' });
    expect(JSON.parse(again.steps[0].toolCalls[0].output.replace('Returned: ', ''))[2]).toBe(random);
  });

  it('a call that had started but not ended is not run again: the program sees it was interrupted', async () => {
    const { price, seen } = priceTools();
    const code = `try { await tools.price({ item: "apple" }) } catch (e) { return e.message }`;
    const journal: NestedJournal = {
      seed: 1,
      clock: 0,
      calls: [{ id: 'prog.1', name: 'price', input: { item: 'apple' }, state: 'started' }],
    };
    const agent = new Agent({ model: scriptedModel(['ok']), tools: [codeMode([price])] });
    const result = await agent.run('go', { resume: stoppedInside(code, journal), runId: 'run-replay' });
    expect(seen).toEqual([]);
    expect(result.steps[0].toolCalls[0].output).toMatch(/The call to price was interrupted by a restart/);
  });

  it('fails the run naming the first call that differs from the journal', async () => {
    const { price, seen } = priceTools();
    const code = `await tools.price({ item: "apple" });
await tools.price({ item: "pear" });
return "done";`;
    const journal: NestedJournal = { seed: 1, clock: 0, calls: [ended('apple', 5), ended('fig', 3)] };
    const agent = new Agent({ model: scriptedModel(['never asked']), tools: [codeMode([price])] });
    const result = await agent.run('go', { resume: stoppedInside(code, journal), runId: 'run-replay' });
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('replay_diverged');
    expect(result.error?.message).toContain(
      'call #2 was tools.price({"item":"fig"}) and is now tools.price({"item":"pear"})',
    );
    expect(seen).toEqual([]);
  });
});
