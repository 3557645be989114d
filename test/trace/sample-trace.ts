import type { AgentEvent } from '../../src/core/index.js';

/** A realistic two-step run: a tool call (with a thought), then the final answer. */
export function sampleTrace(options: { modelText?: string } = {}): AgentEvent[] {
  const base = { runId: 'run-1' };
  const system = { role: 'system' as const, content: 'You are helpful.' };
  const user = { role: 'user' as const, content: 'What is 2+2?' };
  const call = { id: 'c1', name: 'calculator', arguments: '{"expression":"2+2"}' };
  return [
    {
      ...base,
      ts: 1000,
      type: 'run_start',
      input: 'What is 2+2?',
      model: 'openai:gpt-4o-mini',
      protocol: 'native',
      tools: ['calculator'],
    },
    { ...base, ts: 1001, type: 'step_start', step: 1 },
    { ...base, ts: 1002, type: 'model_request', step: 1, model: 'openai:gpt-4o-mini', messages: [system, user] },
    {
      ...base,
      ts: 1250,
      type: 'model_response',
      step: 1,
      text: options.modelText ?? 'I should use the calculator.',
      toolCalls: [call],
      usage: { promptTokens: 120, completionTokens: 30 },
      ms: 248,
    },
    { ...base, ts: 1251, type: 'thought', step: 1, text: 'I should use the calculator.' },
    { ...base, ts: 1252, type: 'tool_start', step: 1, callId: 'c1', tool: 'calculator', input: { expression: '2+2' } },
    { ...base, ts: 1270, type: 'tool_end', step: 1, callId: 'c1', tool: 'calculator', ms: 18, ok: true, output: '4' },
    { ...base, ts: 1271, type: 'observation', step: 1, text: '4' },
    { ...base, ts: 1272, type: 'step_start', step: 2 },
    {
      ...base,
      ts: 1273,
      type: 'model_request',
      step: 2,
      model: 'openai:gpt-4o-mini',
      messages: [
        system,
        user,
        { role: 'assistant', content: 'I should use the calculator.', toolCalls: [call] },
        { role: 'tool', content: '4', toolCallId: 'c1', name: 'calculator' },
      ],
    },
    {
      ...base,
      ts: 1400,
      type: 'model_response',
      step: 2,
      text: 'The answer is 4.',
      usage: { promptTokens: 160, completionTokens: 8 },
      ms: 126,
    },
    { ...base, ts: 1401, type: 'final', step: 2, output: 'The answer is 4.' },
    {
      ...base,
      ts: 1402,
      type: 'run_end',
      status: 'done',
      output: 'The answer is 4.',
      usage: { promptTokens: 280, completionTokens: 38, llmCalls: 2, costUsd: 0.0000648 },
      durationMs: 402,
    },
  ];
}
