import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  applyScorer,
  checkToolCalls,
  type ExpectedCall,
  type RunLike,
  readExpectedCalls,
  rescore,
  type ToolSchema,
  toolCalls,
  traceItems,
} from '../../../src/eval/index.js';
import { Agent, defineTool, scriptedModel } from '../../../src/index.js';

/**
 * The leaderboard's AST checker reads a model's arguments with Python's `json.loads` and compares with
 * Python's types and `==`: these are the rules where a JSON.parse reading would give another verdict.
 */
const PLAN: ToolSchema = {
  name: 'plan_trip',
  parameters: {
    properties: {
      city: { type: 'string' },
      days: { type: 'integer' },
      budget: { type: 'float' },
      weights: { type: 'array', items: { type: 'float' } },
      counts: { type: 'array', items: { type: 'integer' } },
      stops: { type: 'array', items: { type: 'string' } },
      legs: { type: 'array', items: { type: 'dict' } },
      options: { type: 'dict' },
      district: { type: 'string' },
    },
    required: ['city'],
  },
};
const want = (args: ExpectedCall['arguments']): ExpectedCall[] => [
  { name: 'plan_trip', arguments: { city: ['Paris'], ...args } },
];
/** A run whose model sent one native call of plan_trip with this raw argument text. */
const runOf = (text: string): RunLike => ({
  status: 'done',
  output: '',
  steps: [{ kind: 'tool_calls', toolCalls: [], rawToolCalls: [{ id: 'c1', name: 'plan_trip', arguments: text }] }],
  usage: { promptTokens: 0, completionTokens: 0, llmCalls: 1 },
  durationMs: 1,
});
/** The verdict on one call whose arguments are the raw JSON text the model sent. */
const raw = (text: string, args: ExpectedCall['arguments'], tools: ToolSchema[] = [PLAN]) =>
  checkToolCalls([{ name: 'plan_trip', arguments: text }], want(args), { tools });

describe('toolCalls against the leaderboard checker: numbers as Python reads them', () => {
  it('fails a float literal for an integer parameter when the raw text is known (5.0, 1e3), as Python sees a float', () => {
    expect(raw('{"city": "Paris", "days": 5}', { days: [5] }).valid).toBe(true);
    expect(raw('{"city": "Paris", "days": 5.0}', { days: [5] })).toMatchObject({
      valid: false,
      error: expect.stringMatching(/Incorrect type for days: expected int, got 5\.0/),
    });
    expect(raw('{"city": "Paris", "days": 1e3}', { days: [1000] }).valid).toBe(false);
    expect(raw('{"city": "Paris", "days": 1E3}', { days: [1000] }).valid).toBe(false);
  });

  it('keeps giving an already-parsed integral number the benefit of the doubt (its literal is unknown)', () => {
    const parsed = checkToolCalls([{ name: 'plan_trip', arguments: { city: 'Paris', days: 5 } }], want({ days: [5] }), {
      tools: [PLAN],
    });
    expect(parsed.valid).toBe(true);
  });

  it('without a schema, lets any number stand for a numeric answer (the answer 5.0 reads as 5 in JavaScript)', () => {
    const check = (text: string) => checkToolCalls([{ name: 'plan_trip', arguments: text }], want({ budget: [300] }));
    expect(check('{"city": "Paris", "budget": 300.0}').valid).toBe(true);
    expect(check('{"city": "Paris", "budget": 300}').valid).toBe(true);
    expect(check('{"city": "Paris", "budget": true}').valid).toBe(false);
    expect(check('{"city": "Paris", "budget": "300"}').valid).toBe(false);
  });

  it('turns an integer into a float at the top level only: not inside a list of floats', () => {
    expect(raw('{"city": "Paris", "budget": 300}', { budget: [300.5, 300] }).valid).toBe(true);
    // Python: type(1) is int, the item type is float, and the allowed list's first item is a float.
    expect(raw('{"city": "Paris", "weights": [1, 2.5]}', { weights: [[1.0, 2.5]] })).toMatchObject({
      valid: false,
      error: expect.stringMatching(/Nested type check failed for weights/),
    });
    expect(raw('{"city": "Paris", "weights": [1.0, 2.5]}', { weights: [[1.0, 2.5]] }).valid).toBe(true);
    // A converted schema says `number` where the leaderboard's says `float`: the same rule.
    const converted: ToolSchema = {
      name: 'plan_trip',
      parameters: { properties: { city: { type: 'string' }, weights: { type: 'array', items: { type: 'number' } } } },
    };
    expect(raw('{"city": "Paris", "weights": [1, 2.5]}', { weights: [[1.0, 2.5]] }, [converted]).valid).toBe(false);
  });

  it('fails a float literal inside a list of integers', () => {
    expect(raw('{"city": "Paris", "counts": [1, 2]}', { counts: [[1, 2]] }).valid).toBe(true);
    expect(raw('{"city": "Paris", "counts": [1.0, 2]}', { counts: [[1, 2]] }).valid).toBe(false);
  });

  it('reads expected calls given as JSON text with their literals: an answer listing ints lets ints through a list of floats', () => {
    // Python: the items are checked against the float type, or the type of the allowed list's first item.
    const ints = readExpectedCalls('[{"plan_trip": {"city": ["Paris"], "weights": [[1, 2, 3]]}}]');
    const floats = readExpectedCalls(
      '{"id": "trip_7", "ground_truth": [{"plan_trip": {"city": ["Paris"], "weights": [[1.0, 2.0, 3.0]]}}]}',
    );
    const check = (text: string, expected: ExpectedCall[]) =>
      checkToolCalls([{ name: 'plan_trip', arguments: text }], expected, { tools: [PLAN] }).valid;
    expect(check('{"city": "Paris", "weights": [1, 2, 3]}', ints)).toBe(true);
    expect(check('{"city": "Paris", "weights": [1.0, 2.0, 3.0]}', ints)).toBe(true);
    expect(check('{"city": "Paris", "weights": [1, 2, 3]}', floats)).toBe(false);
    expect(check('{"city": "Paris", "weights": [1.0, 2.0, 3.0]}', floats)).toBe(true);
    // Parsed by JavaScript, the answer [[1, 2, 3]] may have been written [[1.0, 2.0, 3.0]]: read as floats.
    expect(check('{"city": "Paris", "weights": [1, 2, 3]}', want({ weights: [[1, 2, 3]] }))).toBe(false);
    // The same from the scorer: expected as text, or a case's expected as text.
    const run = runOf('{"city": "Paris", "weights": [4, 5]}');
    const text = '[{"plan_trip": {"city": ["Paris"], "weights": [[4, 5]]}}]';
    expect(toolCalls(text, { tools: [PLAN] }).score({ input: '', output: '', run })).toMatchObject({ score: 1 });
    expect(toolCalls(undefined, { tools: [PLAN] }).score({ input: '', output: '', run, expected: text })).toMatchObject(
      {
        score: 1,
      },
    );
    expect(readExpectedCalls('\uFEFF[{"plan_trip": {"city": ["Paris"]}}]')).toEqual([
      { name: 'plan_trip', arguments: { city: ['Paris'] }, exact: true },
    ]);
    expect(() => readExpectedCalls('[{"plan_trip": {"city": ["Paris"],}}]')).toThrow(
      /toolCalls: the expected calls are not JSON \(Expecting property name/,
    );
  });

  it('compares values with Python ==: True equals 1, 1 equals 1.0 (dictionary values are not type-checked)', () => {
    expect(raw('{"city": "Paris", "options": {"pets": true}}', { options: [{ pets: [1] }] }).valid).toBe(true);
    expect(raw('{"city": "Paris", "options": {"pets": 1.0}}', { options: [{ pets: [1] }] }).valid).toBe(true);
    expect(raw('{"city": "Paris", "options": {"pets": "1"}}', { options: [{ pets: [1] }] }).valid).toBe(false);
  });

  it('reads NaN and Infinity as Python json.loads does: a call, with a float', () => {
    expect(raw('{"city": "Paris", "budget": Infinity}', { budget: [300.0] }).error).toMatch(
      /Invalid value for budget: inf\./,
    );
    // An irrelevance case: arguments Python decodes are a call, so the case fails.
    expect(checkToolCalls([{ name: 'plan_trip', arguments: '{"budget": NaN}' }], []).valid).toBe(false);
  });
});

describe('toolCalls against the leaderboard checker: decoding, lists and variables', () => {
  it('fails arguments that do not decode to an object, even when every parameter may be left out', () => {
    const optional = [{ name: 'plan_trip', arguments: { days: [3, ''] } }];
    expect(checkToolCalls([{ name: 'plan_trip', arguments: '{}' }], optional).valid).toBe(true);
    expect(checkToolCalls([{ name: 'plan_trip', arguments: '[]' }], optional).valid).toBe(false);
    expect(checkToolCalls([{ name: 'plan_trip', arguments: '{"days": 3,}' }], optional).valid).toBe(false);
    expect(checkToolCalls([{ name: 'plan_trip', arguments: ['days'] }], optional).valid).toBe(false);
  });

  it('counts a call whose arguments do not decode as no call in an irrelevance case', () => {
    expect(checkToolCalls([{ name: 'plan_trip', arguments: '{"city": Paris}' }], []).valid).toBe(true);
    expect(checkToolCalls([{ name: 'plan_trip', arguments: '"Paris"' }], []).valid).toBe(true);
    expect(checkToolCalls([{ name: 'plan_trip', arguments: '{"city": "Paris"}' }], []).valid).toBe(false);
  });

  it('lets an empty list stand for an optional list parameter ("" reads as a list of nothing)', () => {
    expect(raw('{"city": "Paris", "stops": []}', { stops: [['Lyon'], ''] }).valid).toBe(true);
    expect(raw('{"city": "Paris", "legs": []}', { legs: [[{ to: ['Lyon'] }], ''] }).valid).toBe(true);
    expect(raw('{"city": "Paris", "legs": [{"to": "Nice"}]}', { legs: [[{ to: ['Lyon'] }], ''] }).valid).toBe(false);
  });

  it("takes a list item's type from the allowed list when it differs from the schema's (a variable name)", () => {
    expect(raw('{"city": "Paris", "counts": ["n", "m"]}', { counts: [['n', 'm']] }).valid).toBe(true);
    expect(raw('{"city": "Paris", "counts": ["n", 2]}', { counts: [['n', 'm']] }).valid).toBe(false);
  });

  it('compares a value whose allowed values are of another type (a variable, or null) exactly, not normalised', () => {
    expect(raw('{"city": "Paris", "district": null}', { district: ['', null] }).valid).toBe(true);
    expect(raw('{"city": "Paris", "district": ""}', { district: ['', null] }).valid).toBe(true);
    expect(raw('{"city": "Paris", "district": " "}', { district: ['', null] }).valid).toBe(false);
    expect(raw('{"city": "Paris", "district": "Marais"}', { district: ['', null] }).valid).toBe(false);
  });

  it('checks a parameter typed `object` (a converted schema) as the dictionary it stands for', () => {
    const converted: ToolSchema = {
      name: 'plan_trip',
      parameters: { properties: { city: { type: 'string' }, options: { type: 'object' } } },
    };
    const options = [{ pets: [true] }];
    expect(raw('{"city": "Paris", "options": {"pets": true}}', { options }, [converted]).valid).toBe(true);
    expect(raw('{"city": "Paris", "options": {"pets": false}}', { options }, [converted]).valid).toBe(false);
  });

  it('does not take inherited object keys for parameters', () => {
    expect(raw('{"city": "Paris", "constructor": 1}', {}).error).toMatch(/Unexpected parameter: "constructor"/);
    expect(raw('{"city": "Paris", "toString": "x"}', {}).error).toMatch(/Unexpected parameter: "toString"/);
  });

  it("finds a tool's schema under the underscored name a provider was given for a dotted one", () => {
    const hypot: ToolSchema = {
      name: 'math_hypot',
      parameters: { properties: { x: { type: 'integer' }, y: { type: 'integer' } }, required: ['x', 'y'] },
    };
    // y may be left out by the answer, but the schema requires it.
    const expected = [{ name: 'math.hypot', arguments: { x: [3], y: [4, ''] } }];
    const check = (args: string) =>
      checkToolCalls([{ name: 'math_hypot', arguments: args }], expected, { tools: [hypot] });
    expect(check('{"x": 3, "y": 4}').valid).toBe(true);
    expect(check('{"x": 3}').error).toMatch(/Missing required parameter: "y"/);
  });

  const plan = defineTool({
    name: 'plan_trip',
    description: 'Plan a trip',
    input: z.object({ city: z.string(), days: z.number().int() }),
    run: ({ city, days }) => `${days} days in ${city}`,
  });
  const agentWith = (args: string, traceFile?: string) => {
    const model = scriptedModel([{ text: '', toolCalls: [{ id: 'c1', name: 'plan_trip', arguments: args }] }, 'ok']);
    return new Agent({ model, tools: [plan], streaming: false, traceFile });
  };
  const scorer = toolCalls(want({ days: [5] }), { tools: [PLAN] });

  it("scores a real run by the model's raw arguments: 5.0 for an integer fails though the tool took it", async () => {
    const runWith = async (args: string) =>
      applyScorer(scorer, { input: '', output: '', run: await agentWith(args).run('Plan 5 days in Paris') });
    expect((await runWith('{"city": "Paris", "days": 5}')).pass).toBe(true);
    const floatDays = await runWith('{"city": "Paris", "days": 5.0}');
    expect(floatDays.pass).toBe(false);
    expect(floatDays.reason).toMatch(/Incorrect type for days/);
  });

  it("rescores a trace by the model's raw arguments, which its model_response events keep", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bfcl-trace-'));
    const passes = async (args: string, file: string) => {
      await agentWith(args, join(dir, file)).run('Plan 5 days in Paris');
      for await (const r of rescore(traceItems([join(dir, file)]), [scorer])) return r.scores[0].pass;
    };
    expect(await passes('{"city": "Paris", "days": 5}', 'int.jsonl')).toBe(true);
    expect(await passes('{"city": "Paris", "days": 5.0}', 'float.jsonl')).toBe(false);
  });
});
