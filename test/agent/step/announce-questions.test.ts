import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import type { AgentEvent } from '../../../src/core/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { askUserTool } from '../../../src/tools/builtins/ask-user.js';
import { defineTool } from '../../../src/tools/index.js';

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys a service.',
  input: z.object({ service: z.string() }),
  needsApproval: true,
  run: ({ service }) => `deployed ${service}`,
});

const call = (id: string, name: string, args: unknown) => ({
  text: '',
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});

describe('questions in the event stream', () => {
  it('announces an approval and its answer with the call id', async () => {
    const events: AgentEvent[] = [];
    const agent = new Agent({
      model: scriptedModel([call('c1', 'deploy', { service: 'api' }), 'ok']),
      tools: [deploy],
    });
    const result = await agent.run('ship', { onEvent: (e) => events.push(e), approve: (r) => r.callId === 'c1' });
    expect(result.output).toBe('ok');
    const asked = events.filter((e) => e.type === 'approval_request' || e.type === 'approval_response');
    expect(asked).toEqual([
      expect.objectContaining({ type: 'approval_request', step: 0, callId: 'c1', tool: 'deploy', kind: 'approval' }),
      expect.objectContaining({ type: 'approval_response', step: 0, callId: 'c1', approved: true }),
    ]);
    // Asked before the call started.
    const order = events.map((e) => e.type);
    expect(order.indexOf('approval_response')).toBeLessThan(order.indexOf('tool_start'));
  });

  it('announces an ask_user question and the answer text', async () => {
    const events: AgentEvent[] = [];
    const agent = new Agent({
      model: scriptedModel([call('q1', 'ask_user', { question: 'Which city?' }), 'Paris it is.']),
      tools: [askUserTool],
    });
    await agent.run('book', { onEvent: (e) => events.push(e), ask: async () => 'Paris' });
    expect(events.filter((e) => e.type.startsWith('approval_'))).toEqual([
      expect.objectContaining({ type: 'approval_request', callId: 'q1', kind: 'question', question: 'Which city?' }),
      expect.objectContaining({ type: 'approval_response', callId: 'q1', answer: 'Paris' }),
    ]);
  });
});
