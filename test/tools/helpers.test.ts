import { describe, expect, it } from 'vitest';
import { createCallScheduler } from '../../src/tools/call-scheduler.js';
import { closestNames, editDistance } from '../../src/tools/closest-names.js';
import { isRetryableError, RetryableToolError } from '../../src/tools/retryable-tool-error.js';
import { runWithTimeLimit, TimeLimitError } from '../../src/tools/run-with-time-limit.js';
import { runWithTimeout } from '../../src/tools/run-with-timeout.js';
import { serializeOutput } from '../../src/tools/serialize-output.js';
import { synthesizeExample } from '../../src/tools/synthesize-example.js';
import { truncateObservation } from '../../src/tools/truncate-observation.js';

describe('truncateObservation', () => {
  it('leaves short text alone', () => {
    expect(truncateObservation('short', 10)).toBe('short');
  });

  it('keeps head and tail and says how many characters were cut', () => {
    const out = truncateObservation(`${'a'.repeat(60)}${'b'.repeat(60)}`, 80);
    expect(out.length).toBeLessThanOrEqual(80);
    expect(out).toMatch(/^a+\n\[\.\.\. \d+ characters cut \.\.\.\]\nb+$/);
  });

  it('never splits a surrogate pair', () => {
    const out = truncateObservation('😀'.repeat(100), 60);
    expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});

describe('serializeOutput', () => {
  it('serializes values the way the model should see them', () => {
    expect(serializeOutput('text')).toBe('text');
    expect(serializeOutput(42)).toBe('42');
    expect(serializeOutput(undefined)).toBe('(no output)');
    expect(serializeOutput(null)).toBe('null');
    expect(serializeOutput({ a: [1, { b: 2 }] })).toBe('{"a":[1,{"b":2}]}');
    expect(serializeOutput({ n: 10n })).toBe('{"n":"10"}');
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(serializeOutput(cyclic)).toBe('{"a":1,"self":"[Circular]"}');
  });
});

describe('closestNames', () => {
  it('ranks typos and partial names', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(closestNames('wether', ['weather', 'search', 'whether_api'])).toEqual(['weather']);
    expect(closestNames('weather', ['get_weather', 'calculator'])).toEqual(['get_weather']);
    expect(closestNames('zzz', ['weather'])).toEqual([]);
  });
});

describe('isRetryableError', () => {
  it('recognises RetryableToolError and network errors only', () => {
    expect(isRetryableError(new RetryableToolError('x'))).toBe(true);
    expect(isRetryableError(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isRetryableError(new Error('x', { cause: { code: 'ETIMEDOUT' } }))).toBe(true);
    expect(isRetryableError(new Error('x'))).toBe(false);
    expect(isRetryableError('ECONNRESET')).toBe(false);
    expect(isRetryableError(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe(false);
  });
});

describe('runWithTimeout', () => {
  it('returns synchronous results without waiting', () => {
    expect(runWithTimeout(() => 5, { timeoutMs: 10 })).toEqual({ type: 'ok', value: 5 });
    expect(
      runWithTimeout(
        () => {
          throw 'x';
        },
        { timeoutMs: 10 },
      ),
    ).toEqual({ type: 'error', error: 'x' });
  });

  it('is aborted at once when the signal already aborted', () => {
    expect(runWithTimeout(() => 5, { timeoutMs: 10, signal: AbortSignal.abort() })).toEqual({ type: 'aborted' });
  });

  it('times out a promise that never settles', async () => {
    expect(await runWithTimeout(() => new Promise(() => {}), { timeoutMs: 5 })).toEqual({ type: 'timeout' });
  });
});

describe('runWithTimeLimit', () => {
  it('returns the result of a quick function and rethrows its errors', () => {
    expect(runWithTimeLimit(() => 6 * 7, 1000)).toBe(42);
    expect(() =>
      runWithTimeLimit(() => {
        throw new RangeError('bad');
      }, 1000),
    ).toThrow(RangeError);
  });

  it('stops a busy loop that never yields', () => {
    const began = Date.now();
    expect(() =>
      runWithTimeLimit(() => {
        for (;;) {}
      }, 50),
    ).toThrow(TimeLimitError);
    expect(Date.now() - began).toBeLessThan(2000);
  });
});

describe('createCallScheduler', () => {
  it('grants shared slots up to the limit and an exclusive slot alone, first come first served', async () => {
    const scheduler = createCallScheduler(2);
    const order: string[] = [];
    const a = await scheduler.acquire(false);
    const b = await scheduler.acquire(false);
    const x = scheduler.acquire(true).then((release) => {
      order.push('x');
      return release;
    });
    const c = scheduler.acquire(false).then((release) => {
      order.push('c');
      return release;
    });
    a();
    await Promise.resolve();
    expect(order).toEqual([]);
    b();
    (await x)();
    (await c)();
    expect(order).toEqual(['x', 'c']);
  });
});

describe('synthesizeExample', () => {
  it('builds a value that follows the schema', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 6 },
        n: { type: 'integer', minimum: 3 },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
        when: { type: 'string', format: 'date' },
        opt: { type: 'boolean' },
      },
      required: ['name', 'n', 'tags', 'when'],
    };
    expect(synthesizeExample(schema)).toEqual({ name: 'textxx', n: 3, tags: ['a'], when: '2024-01-31' });
  });
});
