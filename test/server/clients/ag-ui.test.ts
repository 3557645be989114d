import { type BaseEvent, HttpAgent } from '@ag-ui/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployed, startServer } from './protocol-fixtures.js';

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

function agentFor(name: string, threadId: string) {
  const agent = new HttpAgent({ url: `${server.url}/v1/agents/${name}/ag-ui`, threadId });
  const events: BaseEvent[] = [];
  agent.subscribe({ onEvent: ({ event }) => void events.push(event) });
  return { agent, events };
}

const say = (id: string, content: string) => ({ id, role: 'user' as const, content });

describe('AG-UI', () => {
  it('streams run, step, text and tool call events that HttpAgent accepts', async () => {
    const { agent, events } = agentFor('helper', 'thread-1');
    agent.addMessage(say('u1', 'Weather in Paris?'));
    const { result, newMessages } = await agent.runAgent();
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('RUN_STARTED');
    expect(types.at(-1)).toBe('RUN_FINISHED');
    for (const type of [
      'STEP_STARTED',
      'STEP_FINISHED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
    ]) {
      expect(types).toContain(type);
    }
    expect(types.filter((t) => t.startsWith('TOOL_CALL_'))).toEqual([
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
    ]);
    expect(result).toBe('It is sunny in Paris. (1 tool call)');
    const assistant = newMessages.filter((m) => m.role === 'assistant');
    expect(assistant.map((m) => m.content)).toEqual(['Let me check.', 'It is sunny in Paris. (1 tool call)']);
    expect(assistant[0].toolCalls?.[0]).toMatchObject({ function: { name: 'weather', arguments: '{"city":"Paris"}' } });
    expect(newMessages.find((m) => m.role === 'tool')).toMatchObject({ content: 'Sunny in Paris' });

    // The next turn carries the thread's messages as history: the tool turn is there, so no new call.
    events.length = 0;
    agent.addMessage(say('u2', 'And tomorrow?'));
    await agent.runAgent();
    expect(events.map((e) => e.type)).not.toContain('TOOL_CALL_START');
    expect(agent.messages.at(-1)?.content).toBe('It is sunny in Paris. (1 tool call)');
  });

  it('ends with an interrupt for a call that needs approval and resumes the run with the answer', async () => {
    deployed.length = 0;
    const { agent } = agentFor('ops', 'thread-2');
    agent.addMessage(say('u1', 'Ship the api'));
    await agent.runAgent();
    expect(agent.pendingInterrupts).toEqual([
      expect.objectContaining({ reason: 'tool_approval', toolCallId: 'd1', id: expect.stringContaining(':d1') }),
    ]);
    expect(deployed).toEqual([]);
    const [interrupt] = agent.pendingInterrupts;
    const { result } = await agent.runAgent({
      resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { approved: true } }],
    });
    expect(result).toBe('Deployed the api.');
    expect(deployed).toEqual(['api']);
    expect(agent.pendingInterrupts).toEqual([]);
  });

  it('asks ask_user questions as user_input interrupts', async () => {
    const { agent } = agentFor('asker', 'thread-3');
    agent.addMessage(say('u1', 'Book a table'));
    await agent.runAgent();
    const [interrupt] = agent.pendingInterrupts;
    expect(interrupt).toMatchObject({ reason: 'user_input', message: 'Which city?' });
    const { result } = await agent.runAgent({
      resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { answer: 'Lyon' } }],
    });
    expect(result).toBe('Booked a table in Lyon.');
  });

  it('refuses frontend tools with a 400 naming the field', async () => {
    const { agent } = agentFor('helper', 'thread-4');
    agent.addMessage(say('u1', 'hi'));
    await expect(
      agent.runAgent({ tools: [{ name: 'confirm', description: 'Ask to confirm', parameters: {} }] }),
    ).rejects.toThrow(/400.*tools/);
  });
});
