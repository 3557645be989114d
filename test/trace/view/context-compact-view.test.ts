import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/core/index.js';
import { type LooseEvent, treeOf } from '../../../src/studio/client/run-tree.js';
import { renderHtml, renderTimeline } from '../../../src/trace/index.js';

const events: AgentEvent[] = [
  { type: 'run_start', runId: 'r', ts: 1, input: 'read', model: 'm', protocol: 'native', tools: ['read'] },
  { type: 'step_start', runId: 'r', ts: 2, step: 0 },
  {
    type: 'context_compact',
    runId: 'r',
    ts: 3,
    step: 0,
    kind: 'clear',
    tokensBefore: 12_052,
    tokensAfter: 3_580,
    callIds: ['call_1', 'call_2'],
  },
  { type: 'final', runId: 'r', ts: 4, step: 0, output: 'done' },
];

describe('a context_compact event in the viewers', () => {
  it('shows its kind, the tokens before and after and the calls cleared in the timeline, the HTML viewer and Studio', () => {
    const line = 'clear: 12,052 → 3,580 tokens, 2 results cleared (recall_result brings them back)';
    expect(renderTimeline(events)).toContain(`context compact ${line}`);
    const html = renderHtml(events);
    expect(html).toContain(`Context compact ${line}`);
    expect(html).toContain('call_1\ncall_2');
    const items = treeOf(events as unknown as LooseEvent[])?.steps[0].items ?? [];
    expect(items).toContainEqual({ kind: 'compact', text: 'clear: 12052 → 3580 tokens, 2 results cleared' });
  });
});
