// What the engine-route tests share: the approver agent (a side effect under approval, then ask_user) and
// a client of the thinkflow app whose run routes drive the engine's runs.
import { z } from 'zod';
import type { createApp, RunRecord } from '../../src/entries/server.js';
import { Agent, askUserTool, defineTool, type ModelRequest, scriptedModel } from '../../src/index.js';
import { eventually } from './engine-processes.js';

/** The agent both engines run: `guarded` (approval first; each run's label is pushed to `ran`), then `ask_user`. */
export function approverAgent(ran: string[]): Agent {
  const guarded = defineTool({
    name: 'guarded',
    description: 'A side effect a person approves first.',
    input: z.object({ label: z.string() }),
    needsApproval: true,
    run: ({ label }) => {
      ran.push(label);
      return `did ${label}`;
    },
  });
  const reply = (request: ModelRequest) => {
    const tools = request.messages.filter((m) => m.role === 'tool');
    const call = (name: string, args: unknown) => ({
      text: '',
      toolCalls: [{ id: `c${tools.length}`, name, arguments: JSON.stringify(args) }],
    });
    if (tools.length === 0) return call('guarded', { label: 'g' });
    if (tools.length === 1) return call('ask_user', { question: 'Which city?' });
    return `done ${String(tools[1].content)}`;
  };
  return new Agent({ name: 'approver', model: scriptedModel(reply), tools: [guarded, askUserTool] });
}

/** POST and GET against the app, and the run's first open question of a kind once it is there. */
export function appClient(app: () => ReturnType<typeof createApp>) {
  const post = (path: string, body: unknown) =>
    app().fetch(
      new Request(`http://localhost${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
  const get = async (path: string) => (await app().fetch(new Request(`http://localhost${path}`))).json();
  const question = (id: string, kind: string) =>
    eventually(async () => {
      const run = (await get(`/v1/runs/${id}`)) as RunRecord;
      return run.questions?.find((q) => !q.answer && q.kind === kind);
    });
  return { post, get, question };
}
