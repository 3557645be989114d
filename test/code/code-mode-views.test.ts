import { describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { codeMode } from '../../src/code/index.js';
import type { AgentEvent } from '../../src/core/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import { treeOf } from '../../src/studio/client/run-tree.js';
import { renderHtml, renderTimeline, summarizeTrace } from '../../src/trace/index.js';
import { priceTools } from './code-helpers.js';

async function codeRunEvents(): Promise<AgentEvent[]> {
  const { price } = priceTools();
  const code =
    'const a = await tools.price({ item: "apple" }); const b = await tools.price({ item: "fig" }); return a.usd + b.usd';
  const model = scriptedModel([
    { text: '', toolCalls: [{ id: 'prog', name: 'run_code', arguments: JSON.stringify({ code }) }] },
    'Eight.',
  ]);
  const events: AgentEvent[] = [];
  await new Agent({ model, tools: [codeMode([price])] }).run('go', { onEvent: (e) => events.push(e) });
  return events;
}

describe('the views show calls from code under their run_code call', () => {
  it('trace summary, timeline and HTML report', async () => {
    const events = await codeRunEvents();
    const [step] = summarizeTrace(events).steps;
    expect(step.tools.map((t) => [t.tool, t.parentCallId])).toEqual([
      ['run_code', undefined],
      ['price', 'prog'],
      ['price', 'prog'],
    ]);
    const timeline = renderTimeline(events);
    expect(timeline).toMatch(/\n {2}→ run_code .*\n(.*\n)* {4}→ price \{"item":"apple"\}/);
    expect(renderHtml(events)).toContain('<tr class="nested"><td class="tool-name">↳ price</td>');
  });

  it('studio: nested tool items under the run_code item', async () => {
    const events = await codeRunEvents();
    const tree = treeOf(JSON.parse(JSON.stringify(events)));
    const items = tree?.steps[0].items.filter((i) => i.kind === 'tool') ?? [];
    expect(items.map((i) => i.kind === 'tool' && i.tool)).toEqual(['run_code']);
    const outer = items[0];
    expect(outer.kind === 'tool' && outer.calls?.map((c) => c.kind === 'tool' && [c.tool, c.ok])).toEqual([
      ['price', true],
      ['price', true],
    ]);
  });
});
