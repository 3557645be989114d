import { describe, expect, it } from 'vitest';
import { readLines, type SseEvent, sseEvents } from '../../../src/llm/http/index.js';

function body(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function* from(lines: string[]) {
  yield* lines;
}

describe('readLines', () => {
  it('splits LF and CRLF lines across chunk boundaries, including multi-byte characters', async () => {
    const bytes = new TextEncoder().encode('a\r\nb€\nc');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    expect(await all(readLines(stream))).toEqual(['a', 'b€', 'c']);
  });

  it('stops with the reason when the signal fires, even with lines still buffered', async () => {
    const controller = new AbortController();
    const lines: string[] = [];
    const error = await (async () => {
      for await (const line of readLines(body(['one\ntwo\nthree\n']), { signal: controller.signal })) {
        lines.push(line);
        controller.abort(new Error('stop'));
      }
    })().catch((e: unknown) => e);
    expect(lines).toEqual(['one']);
    expect((error as Error).message).toBe('stop');
  });
});

describe('sseEvents', () => {
  it('groups fields into events, joins multi-line data, skips comments', async () => {
    const events = await all(
      sseEvents(from([': keep-alive', 'event: delta', 'data: {"a":', 'data: 1}', '', 'id: 7', 'data: x', ''])),
    );
    expect(events).toEqual<SseEvent[]>([
      { event: 'delta', data: '{"a":\n1}' },
      { event: undefined, data: 'x' },
    ]);
  });

  it('takes a bare JSON line as data and flushes a final event without a blank line', async () => {
    expect(await all(sseEvents(from(['{"error":"boom"}', '', 'data: last'])))).toEqual([
      { event: undefined, data: '{"error":"boom"}' },
      { event: undefined, data: 'last' },
    ]);
  });
});
