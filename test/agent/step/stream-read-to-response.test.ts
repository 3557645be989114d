import { describe, expect, it } from 'vitest';
import type { AgentEvent, Model, ModelChunk, ModelRequest } from '../../../src/index.js';
import { Agent } from '../../../src/index.js';

/** A streaming model whose stream sends `after` its response chunk (or never ends), recording its close. */
function openAfterResponse(after: 'hang' | 'more'): Model & { closed: string[] } {
  const closed: string[] = [];
  let calls = 0;
  return {
    id: 'open-after-response',
    capabilities: { nativeTools: true, streaming: true },
    closed,
    generate: async () => ({ text: 'whole' }),
    async *stream(_request: ModelRequest): AsyncIterable<ModelChunk> {
      const call = ++calls;
      try {
        yield { type: 'text_delta', text: 'Hel' };
        yield { type: 'text_delta', text: 'lo.' };
        yield { type: 'response', response: { text: 'Hello.' } };
        if (after === 'hang') await new Promise(() => {});
        yield { type: 'text_delta', text: ' late' };
        yield { type: 'response', response: { text: 'Hello. late' } };
      } finally {
        closed.push(`call ${call}`);
      }
    },
  };
}

describe('a streamed reply is read up to its response chunk', () => {
  it('ends the run when the stream stays open after its response, and closes the stream', async () => {
    const model = openAfterResponse('hang');
    const result = await new Agent({ model }).run('Say hello.');
    expect(result.status).toBe('done');
    expect(result.output).toBe('Hello.');
    expect(model.closed).toEqual(['call 1']);
  });

  it('takes nothing a stream sends after its response', async () => {
    const model = openAfterResponse('more');
    const deltas: string[] = [];
    const onEvent = (e: AgentEvent) => {
      if (e.type === 'model_delta') deltas.push(e.text);
    };
    const result = await new Agent({ model }).run('Say hello.', { onEvent });
    expect(result.output).toBe('Hello.');
    expect(deltas.join('')).toBe('Hello.');
    expect(model.closed).toEqual(['call 1']);
  });
});
