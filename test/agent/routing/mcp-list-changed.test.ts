import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createToolRouter } from '../../../src/entries/tools.js';
import { Agent, type AgentEvent, defineTool, scriptedModel } from '../../../src/index.js';
import { type McpToolSet, mcpTools } from '../../../src/tools/mcp/index.js';
import { stdioFixture, toolContext } from '../../tools/mcp/fixture-process.js';

// Enough tools of the agent's own that routing is on.
const filler = Array.from({ length: 30 }, (_, i) =>
  defineTool({ name: `ledger_${i}`, description: `Posts ledger entry ${i}.`, input: z.object({}), run: () => 'ok' }),
);

describe('an MCP list_changed refresh reaches the routing index (real SDK server process)', { timeout: 60_000 }, () => {
  let set: McpToolSet;
  beforeAll(async () => {
    set = await mcpTools(stdioFixture());
  });
  afterAll(() => set.close());

  it('a tool the server adds while connected is registered in the agent and routed to', async () => {
    const agent = new Agent({ model: scriptedModel(() => 'ok'), tools: filler, toolRouting: createToolRouter() });
    const stop = set.attach(agent.tools);
    expect(agent.tools.get('grow')).toBeDefined();
    const events: AgentEvent[] = [];
    await agent.run('Which tool was added later?', { onEvent: (e) => events.push(e) });
    const before = events.find((e) => e.type === 'tools_select');
    expect(before?.type === 'tools_select' && before.tools).not.toContain('late');

    expect(await set.tools.find((t) => t.name === 'grow')!.run({}, toolContext())).toBe('grown');
    await vi.waitFor(() => expect(agent.tools.get('late')).toBeDefined());
    events.length = 0;
    await agent.run('Which tool was added later?', { onEvent: (e) => events.push(e) });
    const after = events.find((e) => e.type === 'tools_select');
    expect(after?.type === 'tools_select' && after.tools[0]).toBe('late');
    stop();
  });
});
