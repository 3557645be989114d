import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalRequest } from '../../src/tools/tool.js';
import { defineTool } from '../../src/tools/tool.js';
import { createToolExecutor } from '../../src/tools/tool-executor.js';
import { ToolRegistry } from '../../src/tools/tool-registry.js';

function deleteTool(runs: string[], needsApproval: boolean | ((input: { path: string }) => boolean) = true) {
  return defineTool({
    name: 'delete_file',
    description: 'Deletes a file.',
    input: z.object({ path: z.string() }),
    needsApproval,
    run: ({ path }) => {
      runs.push(path);
      return `deleted ${path}`;
    },
  });
}

const callFor = (path: string, id = path) => ({ id, name: 'delete_file', input: { path } });

describe('createToolExecutor: approval', () => {
  it('denies a needsApproval call when no approver is configured, saying how to allow it', async () => {
    const runs: string[] = [];
    const executor = createToolExecutor({ registry: new ToolRegistry([deleteTool(runs)]) });
    const [record] = await executor.execute([callFor('a.txt')]);
    expect(runs).toEqual([]);
    expect(record).toMatchObject({ ok: false, errorKind: 'denied', attempts: 0 });
    expect(record.output).toContain('no approver is configured');
    expect(record.output).toContain('`approve`');
  });

  it('turns a denial into an observation, not an exception', async () => {
    const runs: string[] = [];
    const requests: ApprovalRequest[] = [];
    const executor = createToolExecutor({
      registry: new ToolRegistry([deleteTool(runs)]),
      approve: (request) => {
        requests.push(request);
        return false;
      },
    });
    const [record] = await executor.execute([callFor('a.txt')]);
    expect(runs).toEqual([]);
    expect(requests).toEqual([{ tool: 'delete_file', input: { path: 'a.txt' }, callId: 'a.txt' }]);
    expect(record.output).toContain('was denied by the user');
  });

  it('runs the call when approved', async () => {
    const runs: string[] = [];
    const executor = createToolExecutor({ registry: new ToolRegistry([deleteTool(runs)]), approve: async () => true });
    const [record] = await executor.execute([callFor('a.txt')]);
    expect(runs).toEqual(['a.txt']);
    expect(record).toMatchObject({ ok: true, output: 'deleted a.txt' });
  });

  it('treats a throwing approver as a denial', async () => {
    const runs: string[] = [];
    const executor = createToolExecutor({
      registry: new ToolRegistry([deleteTool(runs)]),
      approve: () => {
        throw new Error('terminal closed');
      },
    });
    const [record] = await executor.execute([callFor('a.txt')]);
    expect(runs).toEqual([]);
    expect(record.output).toContain('asking for approval failed (terminal closed)');
  });

  it('asks only when needsApproval(input) says so', async () => {
    const runs: string[] = [];
    const asked: unknown[] = [];
    const tool = deleteTool(runs, ({ path }) => path.startsWith('/'));
    const executor = createToolExecutor({
      registry: new ToolRegistry([tool]),
      approve: ({ input }) => {
        asked.push(input);
        return false;
      },
    });
    const records = await executor.execute([callFor('tmp.txt'), callFor('/etc/passwd')]);
    expect(runs).toEqual(['tmp.txt']);
    expect(asked).toEqual([{ path: '/etc/passwd' }]);
    expect(records.map((r) => r.ok)).toEqual([true, false]);
  });

  it('asks one question at a time', async () => {
    const runs: string[] = [];
    let open = 0;
    let maxOpen = 0;
    const executor = createToolExecutor({
      registry: new ToolRegistry([deleteTool(runs)]),
      approve: async () => {
        open++;
        maxOpen = Math.max(maxOpen, open);
        await new Promise((resolve) => setTimeout(resolve, 2));
        open--;
        return true;
      },
    });
    await executor.execute([callFor('a'), callFor('b'), callFor('c')]);
    expect(maxOpen).toBe(1);
    expect(runs.sort()).toEqual(['a', 'b', 'c']);
  });
});
