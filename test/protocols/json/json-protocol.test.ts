import { describe, expect, it } from 'vitest';
import type { Step } from '../../../src/core/index.js';
import { jsonProtocol } from '../../../src/protocols/index.js';

describe('jsonProtocol', () => {
  it('reads a JSON action as one tool call', () => {
    expect(jsonProtocol.readReply({ text: '{"thought": "t", "action": "a", "action_input": {"k": 1}}' })).toMatchObject(
      {
        type: 'tool_calls',
        thought: 't',
        calls: [{ id: expect.stringMatching(/^call_/), name: 'a', input: { k: 1 } }],
      },
    );
  });

  it('reads a final answer', () => {
    expect(jsonProtocol.readReply({ text: '{"action": "final_answer", "action_input": "4"}' })).toEqual({
      type: 'final',
      answer: '4',
    });
  });

  it('adds a length hint to an invalid reply that hit the token limit', () => {
    const reply = jsonProtocol.readReply({ text: '{"thought": "very long', finishReason: 'length' });
    expect(reply).toMatchObject({ type: 'invalid', reason: expect.stringContaining('shorter') });
  });

  it('lists tools with compact JSON Schemas in the system prompt', () => {
    const prompt = jsonProtocol.systemPrompt({
      language: 'en',
      tools: [
        {
          name: 'search',
          description: 'Search the web.',
          parameters: {
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            type: 'object',
            properties: { q: { type: 'string' } },
            required: ['q'],
            additionalProperties: false,
          },
        },
      ],
    });
    expect(prompt).toContain('- search: Search the web.');
    expect(prompt).toContain('{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}');
    expect(prompt).not.toContain('$schema');
    expect(prompt).toContain('"action": "final_answer"');
  });

  it('records a tool step with an Observation message built from the outputs when the loop gave none', () => {
    const step: Step = {
      index: 1,
      kind: 'tool_calls',
      raw: '{"action": "a", "action_input": {}}',
      toolCalls: [
        { id: 'c', name: 'a', input: {}, output: 'ok\n[warning] same observation twice', ok: true, durationMs: 1 },
      ],
      warnings: ['same observation twice'],
    };
    expect(jsonProtocol.stepMessages(step, 'en')).toEqual([
      { role: 'assistant', content: '{"action": "a", "action_input": {}}' },
      { role: 'user', content: 'Observation: ok\n[warning] same observation twice' },
    ]);
  });

  it('asks for a final_answer JSON at the step limit', () => {
    expect(jsonProtocol.finalAnswerRequest('en')).toContain('"action": "final_answer"');
    expect(jsonProtocol.finalAnswerRequest('zh')).toContain('"action": "final_answer"');
  });
});
