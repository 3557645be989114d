import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/index.js';
import type { AgentEvent, Message } from '../../../src/core/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import type { ElicitRequest } from '../../../src/tools/index.js';
import { type McpToolSet, mcpTools } from '../../../src/tools/mcp/index.js';
import { toolContext } from './fixture-process.js';

const EVERYTHING = join(
  import.meta.dirname,
  '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

describe('mcpTools against @modelcontextprotocol/server-everything (stdio)', { timeout: 60_000 }, () => {
  let set: McpToolSet;
  const model = scriptedModel(['The capital of France is Paris.']);
  const elicited: ElicitRequest[] = [];
  const warnings: string[] = [];

  beforeAll(async () => {
    set = await mcpTools({
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
      sampling: { model, approve: () => true },
      elicit: (request) => {
        elicited.push(request);
        return { action: 'accept', content: { name: 'Ada Lovelace', check: true, integer: 7 } };
      },
      roots: ['/srv/project'],
      onWarning: (message) => warnings.push(message),
    });
  });
  afterAll(() => set?.close());

  const tool = (name: string) => {
    const found = set.tools.find((t) => t.name === name);
    if (!found) throw new Error(`no tool ${name}: ${set.tools.map((t) => t.name).join(', ')}`);
    return found;
  };

  it('declares sampling, elicitation and roots, so the server shows all 17 tools; the task-only one is left out with a warning', async () => {
    expect(await set.connection.listTools()).toHaveLength(17);
    expect(set.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['trigger-sampling-request', 'trigger-elicitation-request', 'get-roots-list']),
    );
    expect(set.tools).toHaveLength(16);
    expect(warnings).toEqual([expect.stringMatching(/"simulate-research-query".*only as a task.*left out/)]);
  });

  it('answers sampling with the configured model, system prompt and token cap passed on', async () => {
    const output = await tool('trigger-sampling-request').run(
      { prompt: 'Capital of France?', maxTokens: 50 },
      toolContext(),
    );
    expect(String(output)).toContain('The capital of France is Paris.');
    const request = model.calls.at(-1);
    expect(request?.messages[0]).toEqual({ role: 'system', content: 'You are a helpful test server.' });
    expect(request?.maxTokens).toBe(50);
  });

  it('answers elicitation through the elicit option when the run has no ask channel', async () => {
    const output = String(await tool('trigger-elicitation-request').run({}, toolContext()));
    expect(output).toContain('- Name: Ada Lovelace');
    expect(elicited.at(-1)?.message).toBeTruthy();
  });

  it('answers a URL elicitation through the run’s ask channel when it has one', async () => {
    const questions: string[] = [];
    const ctx = {
      ...toolContext(),
      ask: async (q: string) => {
        questions.push(q);
        return 'done';
      },
    };
    const output = String(await tool('trigger-url-elicitation').run({ url: 'https://example.com/consent' }, ctx));
    expect(questions[0]).toContain('https://example.com/consent');
    expect(output).toMatch(/accept/i);
  });

  it('lists the configured roots', async () => {
    expect(String(await tool('get-roots-list').run({}, toolContext()))).toContain('file:///srv/project');
  });

  it('returns the tiny image as an image part, beside its text', async () => {
    const output = (await tool('get-tiny-image').run({}, toolContext())) as Array<{ type: string; mediaType?: string }>;
    expect(output.map((part) => part.type)).toEqual(['text', 'image', 'text']);
    expect(output[1].mediaType).toBe('image/png');
  });

  it('turns progress into tool_progress events of the calling run', async () => {
    const events: AgentEvent[] = [];
    const ctx = {
      ...toolContext(),
      parent: {
        runId: 'run-1',
        emit: (e: AgentEvent) => events.push(e),
        remainingBudget: () => undefined,
        addUsage: () => undefined,
      },
    };
    await tool('trigger-long-running-operation').run({ duration: 0.3, steps: 3 }, ctx);
    const progress = events.filter((e) => e.type === 'tool_progress');
    // The last report may race the result (the SDK stops listening once the result is in).
    expect(progress.map((e) => (e.type === 'tool_progress' ? e.progress : 0)).slice(0, 2)).toEqual([1, 2]);
    expect(progress[0]).toMatchObject({ tool: 'trigger-long-running-operation', total: 3, callId: 'call-1' });
  });

  it('in an agent run: the image reaches a model that reads images, a placeholder the others; progress is an event', async () => {
    const call = (name: string, args: object) => ({
      text: '',
      toolCalls: [{ id: 'c1', name, arguments: JSON.stringify(args) }],
    });
    const toolMessages = (messages: Message[]) => JSON.stringify(messages.filter((m) => m.role !== 'system'));
    const vision = scriptedModel([call('get-tiny-image', {}), 'A tiny image.'], { capabilities: { images: true } });
    await new Agent({ model: vision, tools: set.tools }).run('Show me the image.');
    expect(toolMessages(vision.calls[1].messages)).toContain('"type":"image"');
    const text = scriptedModel([call('get-tiny-image', {}), 'An image I cannot see.'], {
      capabilities: { images: false },
    });
    await new Agent({ model: text, tools: set.tools }).run('Show me the image.');
    expect(toolMessages(text.calls[1].messages)).not.toContain('"type":"image"');
    expect(toolMessages(text.calls[1].messages)).toMatch(/image\/png/);

    const events: AgentEvent[] = [];
    const slow = scriptedModel([call('trigger-long-running-operation', { duration: 0.3, steps: 3 }), 'Done.']);
    await new Agent({ model: slow, tools: set.tools }).run('Run it.', { onEvent: (e) => events.push(e) });
    expect(events.filter((e) => e.type === 'tool_progress').length).toBeGreaterThanOrEqual(2);
  });

  it('validates arguments with the full JSON Schema before calling', () => {
    const parsed = tool('trigger-sampling-request').parse({ maxTokens: 'many' });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues.map((i) => i.path).sort()).toEqual(['maxTokens', 'prompt']);
  });

  it('exposes resources, templates and prompts on the connection', async () => {
    const resources = await set.connection.listResources();
    expect(resources).toHaveLength(7);
    expect(await set.connection.listResourceTemplates()).toHaveLength(2);
    const prompts = await set.connection.listPrompts();
    expect(prompts).toHaveLength(4);
    const read = await set.connection.readResource(resources[0].uri);
    expect(read.contents[0].uri).toBe(resources[0].uri);
    const simple = prompts.find((p) => !p.arguments?.length);
    const got = await set.connection.getPrompt(simple?.name ?? '');
    expect(got.messages.length).toBeGreaterThan(0);
  });
});
