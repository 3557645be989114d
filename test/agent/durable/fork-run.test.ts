import { describe, expect, it } from 'vitest';
import {
  Agent,
  type AgentEvent,
  type Checkpoint,
  ForkError,
  type Message,
  type ModelRequest,
  type ModelResponse,
  scriptedModel,
} from '../../../src/index.js';
import { addTool } from '../helpers.js';

/** Adds 1 three times (reading the last sum from the conversation), then answers with the last sum. */
function counting(request: Omit<ModelRequest, 'signal'>): ModelResponse {
  const results = request.messages.filter((m) => m.role === 'tool');
  const last = Number(results.at(-1)?.content ?? 0);
  const usage = { promptTokens: 10, completionTokens: 2 };
  if (results.length >= 3) return { text: `The sum is ${last}.`, usage };
  const id = `c${results.length}`;
  return { text: '', toolCalls: [{ id, name: 'add', arguments: JSON.stringify({ a: last, b: 1 }) }], usage };
}

function agentWith(options: { contextWindow?: number } = {}) {
  const model = scriptedModel(counting, options);
  return { model, agent: new Agent({ model, tools: [addTool] }) };
}

/** A run of four steps (three tool calls, then the answer) and its last checkpoint. */
async function original() {
  const { agent } = agentWith();
  let last: Checkpoint | undefined;
  const result = await agent.run('Count to three.', {
    onCheckpoint: (c) => {
      last = structuredClone(c);
    },
  });
  expect(result.output).toBe('The sum is 3.');
  return { result, checkpoint: last! };
}

const toolContents = (messages: Message[]) => messages.filter((m) => m.role === 'tool').map((m) => m.content);

describe('agent.fork: a new run from step N of a checkpointed one', () => {
  it('carries the steps before N with their usage and calls the model only from step N on', async () => {
    const { result, checkpoint } = await original();
    const before = structuredClone(checkpoint);
    const { model, agent } = agentWith();
    const events: AgentEvent[] = [];
    const fork = await agent.fork(checkpoint, { fromStep: 2, onEvent: (e) => events.push(e) });

    expect(model.calls).toHaveLength(2);
    // The fork's stream says where it came from.
    expect(events[0]).toMatchObject({ type: 'run_start', forkedFrom: { runId: result.runId, fromStep: 2 } });
    expect(fork.runId).not.toBe(result.runId);
    expect(fork.forkedFrom).toEqual({ runId: result.runId, fromStep: 2 });
    expect(fork.output).toBe('The sum is 3.');
    expect(fork.steps.map((s) => s.index)).toEqual([0, 1, 2, 3]);
    expect(fork.steps.slice(0, 2)).toEqual(result.steps.slice(0, 2));
    // Step 2 saw what the original's step 2 saw: both earlier tool results.
    expect(toolContents(model.calls[0].messages)).toEqual(['1', '2']);
    // Two carried calls and two new ones, 10 + 2 tokens each.
    expect(fork.usage).toMatchObject({ llmCalls: 4, promptTokens: 40, completionTokens: 8 });
    expect(fork.stats.toolCalls).toBe(3);
    expect(checkpoint).toEqual(before);
  });

  it('sends edited messages at step N and keeps them for the steps after', async () => {
    const { checkpoint } = await original();
    const { model, agent } = agentWith();
    let seen: Message[] = [];
    const fork = await agent.fork(checkpoint, {
      fromStep: 1,
      messages: (messages) => {
        seen = messages;
        return messages.map((m) => (m.role === 'tool' ? { ...m, content: '40' } : m));
      },
    });
    // The edit function got the conversation of step 1: system, question, step 0's call and result.
    expect(seen.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(toolContents(model.calls[0].messages)).toEqual(['40']);
    expect(toolContents(model.calls[1].messages)).toEqual(['40', '41']);
    expect(fork.output).toBe('The sum is 42.');
    expect(model.calls).toHaveLength(3);
  });

  it('keeps edited messages whole when the agent fits its prompt into a context window', async () => {
    const { checkpoint } = await original();
    const { model, agent } = agentWith({ contextWindow: 100_000 });
    const fork = await agent.fork(checkpoint, {
      fromStep: 1,
      messages: (seen) => seen.map((m) => (m.role === 'tool' ? { ...m, content: '40' } : m)),
    });
    expect(toolContents(model.calls[1].messages)).toEqual(['40', '41']);
    expect(fork.output).toBe('The sum is 42.');
  });

  it('replaces the conversation with a given message list, and a resumed fork still sees it', async () => {
    const { checkpoint } = await original();
    const { agent } = agentWith();
    const messages: Message[] = [
      { role: 'system', content: 'You add.' },
      { role: 'user', content: 'Count from 10.' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'add', arguments: '{"a":9,"b":1}' }] },
      { role: 'tool', toolCallId: 'x', content: '10' },
    ];
    const checkpoints: Checkpoint[] = [];
    const stopped = new AbortController();
    await agent.fork(checkpoint, {
      fromStep: 1,
      messages,
      signal: stopped.signal,
      onCheckpoint: (c) => {
        checkpoints.push(structuredClone(c));
        // A crash after step 1 of the fork: its checkpoint carries the edit.
        if (c.steps.length === 2) stopped.abort();
      },
    });
    const crashed = checkpoints.at(-1)!;
    expect(crashed.edited?.messages).toEqual(messages);
    expect(crashed.forkedFrom).toEqual({ runId: checkpoint.runId, fromStep: 1 });

    const resumed = agentWith();
    const result = await resumed.agent.run(crashed.input, { runId: crashed.runId, resume: crashed });
    expect(resumed.model.calls[0].messages.slice(0, 4)).toEqual(messages);
    expect(toolContents(resumed.model.calls[0].messages)).toEqual(['10', '11']);
    expect(result.output).toBe('The sum is 12.');
    expect(result.forkedFrom).toEqual({ runId: checkpoint.runId, fromStep: 1 });
  });

  it('forks a fork: its edited messages stay for later steps, and go for an earlier one', async () => {
    const { checkpoint } = await original();
    const { agent } = agentWith();
    let last: Checkpoint | undefined;
    await agent.fork(checkpoint, {
      fromStep: 1,
      messages: (seen) => seen.map((m) => (m.role === 'tool' ? { ...m, content: '40' } : m)),
      onCheckpoint: (c) => {
        last = structuredClone(c);
      },
    });
    const later = agentWith();
    expect((await later.agent.fork(last, { fromStep: 2 })).output).toBe('The sum is 42.');
    expect(toolContents(later.model.calls[0].messages)).toEqual(['40', '41']);
    const earlier = agentWith();
    expect((await earlier.agent.fork(last, { fromStep: 0 })).output).toBe('The sum is 3.');
  });

  it('rejects a missing run, a step it does not have and messages that are not messages', async () => {
    const { checkpoint } = await original();
    const { model, agent } = agentWith();
    await expect(agent.fork(undefined, { fromStep: 0 })).rejects.toMatchObject({
      name: 'ForkError',
      code: 'not_found',
    });
    // Four steps, the last the answer: 0 to 3.
    await expect(agent.fork(checkpoint, { fromStep: 4 })).rejects.toThrow(/fromStep must be a step of run .*0 to 3/);
    await expect(agent.fork(checkpoint, { fromStep: 1.5 })).rejects.toBeInstanceOf(ForkError);
    const robot = [{ role: 'robot', content: 'beep' }] as unknown as Message[];
    await expect(agent.fork(checkpoint, { fromStep: 1, messages: robot })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/not a message list.*role/),
    });
    await expect(agent.fork(checkpoint, { fromStep: 1, messages: () => [] })).rejects.toThrow(/at least one message/);
    expect(model.calls).toHaveLength(0);
  });

  it('forks an ended run from its result, and one that stopped before answering from the step after its last', async () => {
    const { agent } = agentWith();
    const stopped = await new Agent({ model: scriptedModel(counting), tools: [addTool], maxSteps: 2 }).run('Count.');
    expect(stopped.status).toBe('max_steps');
    const fork = await agent.fork({ ...stopped, input: 'Count.' }, { fromStep: 2 });
    expect(fork.status).toBe('done');
    expect(fork.output).toBe('The sum is 3.');
  });
});
