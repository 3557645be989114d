import { describe, expect, it } from 'vitest';
import { CallBatch } from '../../src/tools/call-batch.js';
import type { ToolEndRecord } from '../../src/tools/index.js';

const record = (id: string, index: number): ToolEndRecord => ({
  index,
  id,
  name: 't',
  tool: 't',
  input: {},
  output: id,
  ok: true,
  durationMs: 0,
  attempts: 1,
});

describe('CallBatch', () => {
  it('hands the records back directly, in call order, when every call ended at once', () => {
    const batch = new CallBatch(2);
    batch.set(1, record('b', 1));
    batch.set(0, record('a', 0));
    const result = batch.result();
    expect(Array.isArray(result)).toBe(true);
    expect((result as ToolEndRecord[]).map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('resolves once the last call ends, with the records in call order', async () => {
    const batch = new CallBatch(2);
    batch.set(0, record('a', 0));
    const result = batch.result();
    expect(result).toBeInstanceOf(Promise);
    let settled = false;
    void (result as Promise<ToolEndRecord[]>).then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    batch.set(1, record('b', 1));
    expect((await result).map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('rejects with the first failure of a call it follows, before the others end', async () => {
    const batch = new CallBatch(2);
    const result = batch.result();
    batch.follow(Promise.reject(new Error('executor bug')));
    await expect(result).rejects.toThrow('executor bug');
    batch.fail(new Error('second'));
    batch.set(0, record('a', 0));
    await expect(result).rejects.toThrow('executor bug');
    const early = new CallBatch(1);
    early.fail(new Error('before result'));
    await expect(early.result()).rejects.toThrow('before result');
  });
});
