import {
  CancelTaskRequest,
  GetTaskRequest,
  SendMessageRequest,
  type StreamResponse,
  type Task,
  TaskState,
} from '@a2a-js/sdk';
import { type Client, ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployed, startServer } from './protocol-fixtures.js';

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

/**
 * The SDK's own client from the agent card: as it comes (v1.0, the SDK's default), or with its v0.3
 * compatibility on and the card's v0.3 interface only, so it speaks message/send and friends.
 */
async function clientFor(name: string, version: '1.0' | '0.3'): Promise<Client> {
  const legacyCompat = { enabled: version === '0.3' };
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ legacyCompat })],
    cardResolver: new DefaultAgentCardResolver({ legacyCompat }),
  });
  // The card is at <base>/.well-known/agent-card.json: the base ends with a slash.
  if (version === '1.0') return factory.createFromUrl(`${server.url}/a2a/${name}/`);
  const card = await new DefaultAgentCardResolver({ legacyCompat }).resolve(`${server.url}/a2a/${name}/`);
  const legacy = card.supportedInterfaces.filter((i) => i.protocolVersion.startsWith('0.'));
  expect(legacy).toHaveLength(1);
  return factory.createFromAgentCard({ ...card, supportedInterfaces: legacy });
}

const message = (text: string, extra: Record<string, unknown> = {}) =>
  SendMessageRequest.fromJSON({
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra },
  });

const textOf = (task: Task) =>
  task.artifacts
    .flatMap((a) => a.parts)
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join('');

function asTask(result: unknown): Task {
  expect(result).toHaveProperty('status');
  return result as Task;
}

describe.each(['1.0', '0.3'] as const)('A2A server, protocol %s', (version) => {
  it('serves an agent card at the well-known paths', async () => {
    const card = await (await fetch(`${server.url}/a2a/helper/.well-known/agent-card.json`)).json();
    expect(card).toMatchObject({ name: 'helper', url: `${server.url}/a2a/helper`, capabilities: { streaming: true } });
    // Four agents: the root card says where theirs are.
    expect((await fetch(`${server.url}/.well-known/agent-card.json`)).status).toBe(404);
  });

  it('answers message/send with a completed task and reads it back with tasks/get', async () => {
    const client = await clientFor('helper', version);
    const task = asTask(await client.sendMessage(message('Weather in Paris?')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(task)).toBe('It is sunny in Paris. (1 tool call)');
    const again = await client.getTask(GetTaskRequest.fromJSON({ id: task.id }));
    expect(again.id).toBe(task.id);
    expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(again)).toBe(textOf(task));
  });

  it('streams status and artifact updates ending in the same answer', async () => {
    const client = await clientFor('helper', version);
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(message('Weather in Paris?'))) events.push(event);
    const kinds = events.map((e) => e.payload?.$case);
    expect(kinds[0]).toBe('task');
    expect(kinds).toContain('artifactUpdate');
    const last = events.at(-1)?.payload;
    expect(last?.$case).toBe('statusUpdate');
    if (last?.$case !== 'statusUpdate') return;
    expect(last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const final = events
      .map((e) => e.payload)
      .filter((p) => p?.$case === 'artifactUpdate')
      .at(-1);
    expect(final?.$case === 'artifactUpdate' && final.value.artifact?.parts[0]?.content?.value).toBe(
      'It is sunny in Paris. (1 tool call)',
    );
  });

  it('puts a call that needs approval in input-required and goes on when the same task is answered', async () => {
    deployed.length = 0;
    const client = await clientFor('ops', version);
    const task = asTask(await client.sendMessage(message('Ship the api')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const question = task.status?.message?.parts[0]?.content;
    expect(question?.$case === 'text' && question.value).toContain('Approve the call to deploy');
    expect(deployed).toEqual([]);

    const events: StreamResponse[] = [];
    const answer = message('yes', { taskId: task.id, contextId: task.contextId });
    for await (const event of client.sendMessageStream(answer)) events.push(event);
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(deployed).toEqual(['api']);
    const done = await client.getTask(GetTaskRequest.fromJSON({ id: task.id }));
    expect(textOf(done)).toBe('Deployed the api.');
  });

  it('takes the answer to an ask_user question from the follow-up message', async () => {
    const client = await clientFor('asker', version);
    const task = asTask(await client.sendMessage(message('Book a table')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const done = asTask(await client.sendMessage(message('Lyon', { taskId: task.id, contextId: task.contextId })));
    expect(done.id).toBe(task.id);
    expect(textOf(done)).toBe('Booked a table in Lyon.');
  });

  it('cancels a running task, and refuses to cancel a finished one', async () => {
    const client = await clientFor('slow', version);
    const started = asTask(
      await client.sendMessage(
        SendMessageRequest.fromJSON({
          message: { messageId: 'm-slow', role: 'ROLE_USER', parts: [{ text: 'take your time' }] },
          configuration: { returnImmediately: true, blocking: false },
        }),
      ),
    );
    expect([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]).toContain(started.status?.state);
    const canceled = await client.cancelTask(CancelTaskRequest.fromJSON({ id: started.id }));
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await expect(client.cancelTask(CancelTaskRequest.fromJSON({ id: started.id }))).rejects.toThrow(/cancel/i);
    await expect(client.getTask(GetTaskRequest.fromJSON({ id: 'no-such-task' }))).rejects.toThrow(/not found/i);
  });
});
