import { describe, expect, it } from 'vitest';
import { costOf } from '../../src/llm/index.js';
import { type LooseEvent, traceEvents, treeOf } from '../../src/studio/client/run-tree.js';

const response = (step: number, usage: { promptTokens: number; completionTokens: number }, modelId?: string) => ({
  type: 'model_response',
  runId: 'r',
  step,
  text: '',
  ms: 10,
  usage,
  modelId,
});

describe('the studio run tree', () => {
  it('adds up tokens and cost per step, per model call, with the price table of the run total', () => {
    const events: LooseEvent[] = [
      { type: 'run_start', runId: 'r', input: 'hi', model: 'openai:gpt-4o-mini' },
      response(0, { promptTokens: 1000, completionTokens: 100 }),
      // A retried reply in the same step: a second call, priced by the model that answered it.
      response(0, { promptTokens: 500, completionTokens: 50 }, 'anthropic:claude-haiku-4-5'),
      response(1, { promptTokens: 10, completionTokens: 5 }),
    ];
    const [first, second] = treeOf(events)?.steps ?? [];
    expect(first).toMatchObject({ tokens: 1650, ms: 20 });
    const expected =
      (costOf('openai:gpt-4o-mini', { promptTokens: 1000, completionTokens: 100 }) as number) +
      (costOf('anthropic:claude-haiku-4-5', { promptTokens: 500, completionTokens: 50 }) as number);
    expect(first.costUsd).toBeCloseTo(expected, 12);
    expect(second.tokens).toBe(15);
    expect(second.costUsd).toBeGreaterThan(0);
  });

  it('leaves the cost unset for a model without a price, keeping the tokens', () => {
    const root = treeOf([
      { type: 'run_start', runId: 'r', input: 'hi', model: 'openai:my-finetune' },
      response(0, { promptTokens: 7, completionTokens: 3 }),
    ]);
    expect(root?.steps[0]).toMatchObject({ tokens: 10 });
    expect(root?.steps[0].costUsd).toBeUndefined();
  });

  it('reads JSONL text, naming the line that is not JSON', () => {
    expect(traceEvents('{"type":"run_start","runId":"r"}\n\n')).toHaveLength(1);
    expect(() => traceEvents('{"type":"run_start","runId":"r"}\n{oops')).toThrow(/line 2/);
  });
});
