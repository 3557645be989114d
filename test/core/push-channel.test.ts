import { describe, expect, it } from 'vitest';
import { abortableChannel, createPushChannel } from '../../src/core/index.js';

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

describe('abortableChannel', () => {
  it('closes when the producer resolves and fails with its error when it rejects', async () => {
    const ok = abortableChannel<number>(undefined, async (channel) => {
      channel.push(1);
      await Promise.resolve();
      channel.push(2);
    });
    expect(await drain(ok)).toEqual([1, 2]);
    const bad = abortableChannel<number>(undefined, async (channel) => {
      channel.push(1);
      throw new Error('producer broke');
    });
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const value of bad) seen.push(value);
      })(),
    ).rejects.toThrow('producer broke');
    expect(seen).toEqual([1]);
  });

  it("fires the producer's signal when the caller aborts or the reader leaves, and not otherwise", async () => {
    const outer = new AbortController();
    let linked: AbortSignal | undefined;
    const never = new Promise<void>(() => {});
    const byCaller = abortableChannel<number>(outer.signal, (_channel, signal) => {
      linked = signal;
      return never;
    });
    expect(linked?.aborted).toBe(false);
    outer.abort(new Error('caller stopped'));
    expect(linked?.aborted).toBe(true);
    expect(linked?.reason).toEqual(new Error('caller stopped'));
    await byCaller.return();

    let left: AbortSignal | undefined;
    const byReader = abortableChannel<number>(undefined, (channel, signal) => {
      left = signal;
      channel.push(1);
      return never;
    });
    for await (const _ of byReader) break;
    expect(left?.aborted).toBe(true);

    let done: AbortSignal | undefined;
    const finished = abortableChannel<number>(new AbortController().signal, async (channel, signal) => {
      done = signal;
      channel.push(1);
    });
    expect(await drain(finished)).toEqual([1]);
    expect(done?.aborted).toBe(false);
  });
});
