import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvent, scriptedModel } from '../../../src/index.js';
import { renderHtml, renderTimeline } from '../../../src/trace/index.js';

async function events(): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  const model = scriptedModel([
    {
      text: 'Four.',
      reasoning: [{ type: 'reasoning', text: 'Two plus two is four.', provider: 'anthropic', signature: 's' }],
      usage: {
        promptTokens: 1200,
        completionTokens: 40,
        cacheReadTokens: 1000,
        cacheWriteTokens: 150,
        reasoningTokens: 30,
      },
    },
  ]);
  await new Agent({ model }).run('2+2?', { onEvent: (e) => out.push(e) });
  return out;
}

describe('traces show reasoning and cached tokens', () => {
  it('in the HTML viewer', async () => {
    const html = renderHtml(await events());
    expect(html).toContain('<pre class="reasoning">Two plus two is four.</pre>');
    expect(html).toContain('1200 → 40 tokens (1000 cached, 150 cache write, 30 reasoning)');
    expect(html).toContain('1200 prompt + 40 completion (1000 cached, 150 cache write, 30 reasoning)');
  });

  it('in the terminal timeline', async () => {
    const text = renderTimeline(await events());
    expect(text).toContain('1200→40 tokens (1000 cached, 150 cache write, 30 reasoning)');
    expect(text).toContain('reasoning Two plus two is four.');
  });
});
