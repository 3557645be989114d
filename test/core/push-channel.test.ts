import { describe, expect, it } from 'vitest';
import { createPushChannel } from '../../src/core/index.js';

async function drain<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

describe('createPushChannel', () => {
  it('yields what was pushed, before and after the reader waits, then ends at close', async () => {
    const channel = createPushChannel<number>();
    channel.push(1);
    const read = drain(channel);
    await Promise.resolve();
    channel.push(2);
    channel.close();
    expect(await read).toEqual([1, 2]);
  });

  it('throws a failure only after the values buffered before it', async () => {
    const channel = createPushChannel<number>();
    channel.push(1);
    channel.fail(new Error('boom'));
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const value of channel) seen.push(value);
      })(),
    ).rejects.toThrow('boom');
    expect(seen).toEqual([1]);
  });

  it('calls onStop once when the reader leaves early, never after a close', async () => {
    let stops = 0;
    const early = createPushChannel<number>(() => stops++);
    early.push(1);
    for await (const _ of early) break;
    await early.return();
    expect(stops).toBe(1);

    const closed = createPushChannel<number>(() => stops++);
    closed.push(1);
    closed.close();
    for await (const _ of closed) break;
    expect(stops).toBe(1);
  });

  it('return() ends a next() that is still waiting', async () => {
    const channel = createPushChannel<number>();
    const waiting = channel.next();
    await channel.return();
    expect(await waiting).toEqual({ done: true, value: undefined });
    channel.push(5);
    expect(await channel.next()).toEqual({ done: true, value: undefined });
  });
});
