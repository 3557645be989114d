// A workspace run's trace in the studio, in headless Chromium: the Files panel and each call's diff.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import type { AgentEvent } from '../../src/core/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import { virtualWorkspace } from '../../src/workspace/index.js';
import { hasChromium, type Studio, startStudio } from './studio-browser.fixture.js';

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  text: '',
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});

describe.skipIf(!hasChromium)('a workspace run in the studio', () => {
  let studio: Studio;
  let trace: string;

  beforeAll(async () => {
    studio = await startStudio();
    const events: AgentEvent[] = [];
    const model = scriptedModel([
      call('w1', 'write_file', { path: '报告.md', content: '# 报告\n销售增长。\n' }),
      call('e1', 'edit_file', { path: '报告.md', old_string: '增长', new_string: '增长 20%' }),
      '完成。',
    ]);
    await new Agent({ model, workspace: await virtualWorkspace() }).run('写报告', {
      onEvent: (e) => void events.push(e),
    });
    trace = join(studio.dir, 'workspace.jsonl');
    writeFileSync(trace, events.map((e) => JSON.stringify(e)).join('\n'));
  }, 180_000);

  afterAll(async () => {
    await studio?.close();
  });

  it('shows the Files panel and the diff of each call that changed files', async () => {
    const { page, errors } = await studio.open('#trace');
    await page.setInputFiles('#trace-file', trace);
    await page.waitForSelector('#tree .node.final');
    expect(await page.textContent('details.files summary')).toBe('Files (1)');
    expect(await page.textContent('details.files li')).toBe('报告.md · added at step 1');
    const diffs = await page.$$eval('#tree pre.diff', (nodes) => nodes.map((n) => n.textContent));
    expect(diffs).toHaveLength(2);
    expect(diffs[1]).toContain('-销售增长。\n+销售增长 20%。');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
