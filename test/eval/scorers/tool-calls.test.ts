import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  applyScorer,
  checkToolCalls,
  type RunLike,
  standardizeString,
  type ToolSchema,
  toolCalls,
} from '../../../src/eval/index.js';
import { Agent, defineTool, scriptedModel } from '../../../src/index.js';

/** A run that made these calls, one step each. */
const madeCalls = (...calls: [string, Record<string, unknown>][]): RunLike => ({
  status: 'done',
  output: '',
  steps: calls.map(([name, input], i) => ({
    kind: 'tool_calls' as const,
    toolCalls: [{ id: `c${i}`, name, input, output: '', ok: true, durationMs: 1 }],
  })),
  usage: { promptTokens: 0, completionTokens: 0, llmCalls: 1 },
  durationMs: 1,
});

const WEATHER: ToolSchema = {
  name: 'get_weather',
  parameters: {
    properties: {
      city: { type: 'string' },
      unit: { type: 'string' },
      days: { type: 'integer' },
      lat: { type: 'float' },
      tags: { type: 'array', items: { type: 'string' } },
      filters: { type: 'dict' },
    },
    required: ['city'],
  },
};
const expected = [{ name: 'get_weather', arguments: { city: ['Paris', 'Paris, France'], unit: ['celsius', ''] } }];
const verdict = (run: RunLike, want: unknown = expected, tools: ToolSchema[] = [WEATHER]) =>
  applyScorer(toolCalls(want as never, { tools }), { input: 'weather?', output: '', run });

describe('toolCalls (the leaderboard AST-check rules)', () => {
  it('normalises strings as the checker does: no spaces or ,./-_*^, lower case, single quotes as double', () => {
    expect(standardizeString("April 1, 2024 - O'Hare_Airport*^/.")).toBe('april12024o"hareairport');
  });

  it('passes a call whose name and values match, with strings compared after normalisation', async () => {
    expect((await verdict(madeCalls(['get_weather', { city: 'paris,france', unit: 'Celsius' }]))).pass).toBe(true);
  });

  it('fails a wrong function name', async () => {
    const r = await verdict(madeCalls(['get_forecast', { city: 'Paris' }]));
    expect(r.reason).toMatch(/^cannot_find_match: .*wrong|Function name/);
  });

  it('fails an unknown parameter, whether the schema or the expected call lacks it', async () => {
    expect((await verdict(madeCalls(['get_weather', { city: 'Paris', mood: 'sunny' }]))).reason).toMatch(
      /Unexpected parameter: "mood"/,
    );
    // days is in the schema but not in the expected call: still unexpected.
    expect((await verdict(madeCalls(['get_weather', { city: 'Paris', days: 3 }]))).reason).toMatch(
      /Unexpected parameter: "days"/,
    );
  });

  it('fails a missing required parameter (from the schema, else from the allowed values)', async () => {
    expect((await verdict(madeCalls(['get_weather', { unit: 'celsius' }]))).reason).toMatch(
      /Missing required parameter: "city"/,
    );
    const noSchema = await verdict(madeCalls(['get_weather', { unit: 'celsius' }]), expected, []);
    expect(noSchema.reason).toMatch(/Missing required parameter: "city"/);
  });

  it('lets a parameter whose allowed values include "" be left out, and only that one', async () => {
    expect((await verdict(madeCalls(['get_weather', { city: 'Paris' }]))).pass).toBe(true);
    // Optional in the schema, but the expected call gives no "": the checker's missing_optional.
    const strict = [{ name: 'get_weather', arguments: { city: ['Paris'], unit: ['celsius'] } }];
    expect((await verdict(madeCalls(['get_weather', { city: 'Paris' }]), strict)).reason).toMatch(
      /^cannot_find_match: .*not provided/,
    );
  });

  it('fails a value outside the allowed values', async () => {
    expect((await verdict(madeCalls(['get_weather', { city: 'Lyon' }]))).reason).toMatch(/Invalid value for city/);
  });

  it('accepts an integer where a float is expected, but not a float or a boolean where an integer is', async () => {
    const want = [{ name: 'get_weather', arguments: { city: ['Paris'], lat: [48.0], days: [3, ''] } }];
    expect((await verdict(madeCalls(['get_weather', { city: 'Paris', lat: 48 }]), want)).pass).toBe(true);
    expect((await verdict(madeCalls(['get_weather', { city: 'Paris', lat: 48, days: 3.5 }]), want)).reason).toMatch(
      /Incorrect type for days/,
    );
    expect((await verdict(madeCalls(['get_weather', { city: 'Paris', lat: 48, days: true }]), want)).reason).toMatch(
      /Incorrect type for days/,
    );
    expect((await verdict(madeCalls(['get_weather', { city: 'Paris', lat: '48' }]), want)).reason).toMatch(
      /Incorrect type for lat/,
    );
  });

  it('compares lists element by element after normalisation, in order', async () => {
    const want = [{ name: 'get_weather', arguments: { city: ['Paris'], tags: [['Rain', 'wind-speed']] } }];
    expect(
      (await verdict(madeCalls(['get_weather', { city: 'Paris', tags: ['rain', 'Wind Speed'] }]), want)).pass,
    ).toBe(true);
    expect(
      (await verdict(madeCalls(['get_weather', { city: 'Paris', tags: ['wind speed', 'rain'] }]), want)).pass,
    ).toBe(false);
    expect((await verdict(madeCalls(['get_weather', { city: 'Paris', tags: ['rain', 3] }]), want)).reason).toMatch(
      /Nested type/,
    );
  });

  it('checks a dictionary key by key: unknown keys fail, keys with "" may be left out', async () => {
    const want = [{ name: 'get_weather', arguments: { city: ['Paris'], filters: [{ min: [10], max: [20, ''] }] } }];
    expect((await verdict(madeCalls(['get_weather', { city: 'Paris', filters: { min: 10 } }]), want)).pass).toBe(true);
    expect(
      (await verdict(madeCalls(['get_weather', { city: 'Paris', filters: { min: 10, avg: 1 } }]), want)).reason,
    ).toMatch(/Unexpected dict key "avg"/);
    expect((await verdict(madeCalls(['get_weather', { city: 'Paris', filters: { max: 20 } }]), want)).reason).toMatch(
      /Missing dict key "min"/,
    );
  });

  it('matches parallel calls in any order, each expected call by a distinct call', async () => {
    const want = [{ get_weather: { city: ['Paris'] } }, { get_weather: { city: ['Tokyo'] } }];
    expect(
      (await verdict(madeCalls(['get_weather', { city: 'tokyo' }], ['get_weather', { city: 'Paris' }]), want)).pass,
    ).toBe(true);
    // Two calls for Paris cannot cover Paris and Tokyo.
    expect(
      (await verdict(madeCalls(['get_weather', { city: 'Paris' }], ['get_weather', { city: 'Paris' }]), want)).pass,
    ).toBe(false);
    expect((await verdict(madeCalls(['get_weather', { city: 'Paris' }]), want)).reason).toMatch(/^wrong_count/);
  });

  it('holds the order when asked', () => {
    const calls = [
      { name: 'a', arguments: {} },
      { name: 'b', arguments: {} },
    ];
    const want = [
      { name: 'b', arguments: {} },
      { name: 'a', arguments: {} },
    ];
    expect(checkToolCalls(calls, want).valid).toBe(true);
    expect(checkToolCalls(calls, want, { ordered: true }).valid).toBe(false);
  });

  it('treats no call as right for a relevance case, and any call as wrong', async () => {
    expect((await verdict(madeCalls(), [])).pass).toBe(true);
    expect((await verdict(madeCalls(['get_weather', { city: 'Paris' }]), [])).reason).toMatch(
      /wrong_count: .*expected 0, got 1/,
    );
  });

  it('reads the expected calls from the case, and dotted names as the underscored ones providers send', async () => {
    const run = madeCalls(['math_hypot', { x: 3, y: 4 }]);
    const r = await applyScorer(toolCalls(), {
      input: '',
      output: '',
      run,
      expected: { toolCalls: [{ 'math.hypot': { x: [3], y: [4] } }] },
    });
    expect(r.pass).toBe(true);
  });

  it('scores the calls a real agent run made', async () => {
    const weather = defineTool({
      name: 'get_weather',
      description: 'Weather for a city',
      input: z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']).optional() }),
      run: ({ city }) => `Sunny in ${city}`,
    });
    const model = scriptedModel([
      { text: '', toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"PARIS"}' }] },
      'It is sunny in Paris.',
    ]);
    const result = await new Agent({ model, tools: [weather], streaming: false }).run('Weather in Paris?');
    const r = await applyScorer(toolCalls(expected), {
      input: 'Weather in Paris?',
      output: result.output,
      run: result,
    });
    expect(r).toMatchObject({ score: 1, pass: true });
  });
});
