import { describe, expect, it } from 'vitest';
import { Agent, scriptedModel } from '../../../src/index.js';
import { mcpTools } from '../../../src/tools/mcp/index.js';
import { stdioFixture } from './fixture-process.js';

describe('MCP tools inside an agent run', { timeout: 90_000 }, () => {
  it('a tool error and a server crash become observations, and the run finishes', async () => {
    const set = await mcpTools(stdioFixture());
    try {
      const call = (id: string, name: string, args: object) => ({
        text: '',
        toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
      });
      const model = scriptedModel([
        call('c1', 'fail', {}),
        call('c2', 'crash', {}),
        call('c3', 'echo', { text: 'after the crash' }),
        { text: 'All done.' },
      ]);
      const agent = new Agent({ model, tools: set.tools, protocol: 'native' });
      const result = await agent.run('Exercise the MCP server.');
      expect(result.status).toBe('done');
      expect(result.output).toBe('All done.');
      const toolMessages =
        model.calls
          .at(-1)
          ?.messages.filter((m) => m.role === 'tool')
          .map((m) => m.content) ?? [];
      expect(toolMessages.join('\n')).toMatch(/disk is full/);
      expect(toolMessages.join('\n')).toMatch(/stopped during the call to "crash"/);
      expect(toolMessages.join('\n')).toMatch(/echo: after the crash/);
    } finally {
      await set.close();
    }
  });
});
