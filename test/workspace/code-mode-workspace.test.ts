import { describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { codeMode } from '../../src/code/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import { virtualWorkspace, workspaceTools } from '../../src/workspace/index.js';

const runCode = (code: string) => ({
  text: '',
  toolCalls: [{ id: 'rc1', name: 'run_code', arguments: JSON.stringify({ code }) }],
});

describe('workspace tools in code mode', () => {
  it('a program calls them under the same policy: a denied command throws, an ask waits for approval', async () => {
    const ws = await virtualWorkspace({ files: { '销售.csv': '产品,销售额\n手机,3000\n耳机,450\n' } });
    const code = `const out = [];
out.push(await tools.bash({ command: "awk -F, 'NR>1 {s+=$2} END {print s}' 销售.csv" }));
try { await tools.bash({ command: 'echo x; bash -c "rm 销售.csv"' }) } catch (e) { out.push('denied: ' + e.message) }
try { await tools.bash({ command: 'curl http://example.com' }) } catch (e) { out.push('asked: ' + e.message) }
return out;`;
    const asked: string[] = [];
    const tools = workspaceTools(ws, { policy: { commands: { deny: ['rm'], ask: ['curl'] } } });
    const agent = new Agent({ model: scriptedModel([runCode(code), 'done']), tools: [codeMode(tools)] });
    const result = await agent.run('go', {
      approve: (request) => {
        asked.push(`${request.tool}: ${(request.input as { command: string }).command}`);
        return false;
      },
    });
    const output = result.steps[0].toolCalls[0].output;
    expect(output).toContain('stdout:\\n3450');
    expect(output).toMatch(/denied: .*Command refused: rm 销售.csv/);
    expect(output).toContain('asked: ');
    expect(asked).toEqual(['bash: curl http://example.com']);
    expect(await ws.readFile('销售.csv')).toContain('手机');
  });
});
