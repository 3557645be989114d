import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RetryableToolError } from '../../src/tools/retryable-tool-error.js';
import { type DefineToolOptions, defineTool, type ToolContext } from '../../src/tools/tool.js';
import { createToolExecutor, type ToolExecutorOptions } from '../../src/tools/tool-executor.js';
import { ToolRegistry } from '../../src/tools/tool-registry.js';

type RunFn = DefineToolOptions<z.ZodObject<{ q: z.ZodOptional<z.ZodString> }>, unknown>['run'];

const tool = (name: string, run: RunFn, extra: Partial<DefineToolOptions<z.ZodType, unknown>> = {}) =>
  defineTool({ name, description: `${name} tool`, input: z.object({ q: z.string().optional() }), run, ...extra });

const setup = (tools: ReturnType<typeof tool>[], options: Partial<ToolExecutorOptions> = {}) => {
  const registry = new ToolRegistry(tools);
  return { registry, executor: createToolExecutor({ registry, runId: 'r1', retryDelayMs: 1, ...options }) };
};

const call = (name: string, input: unknown = {}, id = `c-${name}`) => ({ id, name, input });

describe('createToolExecutor: outcomes', () => {
  it('runs a tool and records its output, input, duration and attempts', async () => {
    const { executor } = setup([tool('echo', ({ q }) => `you said ${q}`)]);
    const [record] = await executor.execute([call('echo', '{"q":"hi"}')]);
    expect(record).toMatchObject({
      id: 'c-echo',
      name: 'echo',
      tool: 'echo',
      input: { q: 'hi' },
      output: 'you said hi',
      ok: true,
      attempts: 1,
      index: 0,
    });
    expect(record.error).toBeUndefined();
    expect(record.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('gives the tool a context with signal, run id, call id, logger and approval hook', async () => {
    let seen: ToolContext | undefined;
    const { executor } = setup([
      tool('ctx', (_input, ctx) => {
        seen = ctx;
        return 'ok';
      }),
    ]);
    await executor.execute([call('ctx', {}, 'call-7')]);
    expect(seen?.runId).toBe('r1');
    expect(seen?.callId).toBe('call-7');
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
    expect(typeof seen?.logger.info).toBe('function');
    expect(await seen?.approve({ tool: 'ctx', input: {} })).toBe(false);
  });

  it('serializes object results as compact JSON', async () => {
    const { executor } = setup([tool('obj', async () => ({ a: 1, b: [true, null], c: 'x' }))]);
    const [record] = await executor.execute([call('obj')]);
    expect(record.output).toBe('{"a":1,"b":[true,null],"c":"x"}');
  });

  it('times out a tool that hangs forever and aborts its signal', async () => {
    let signal: AbortSignal | undefined;
    const hang = tool(
      'hang',
      (_input, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
      { timeoutMs: 30 },
    );
    const { executor } = setup([hang]);
    const began = Date.now();
    const [record] = await executor.execute([call('hang')]);
    expect(Date.now() - began).toBeLessThan(2000);
    expect(record).toMatchObject({ ok: false, errorKind: 'timeout', output: 'Tool hang timed out after 30 ms.' });
    expect(signal?.aborted).toBe(true);
  });

  it('uses the executor timeout for tools without their own', async () => {
    const { executor } = setup([tool('hang', () => new Promise(() => {}))], { timeoutMs: 20 });
    const [record] = await executor.execute([call('hang')]);
    expect(record.output).toBe('Tool hang timed out after 20 ms.');
  });

  it('reports a thrown Error as "Tool X failed: <message>"', async () => {
    const { executor } = setup([
      tool('bad', () => {
        throw new Error('disk full');
      }),
    ]);
    const [record] = await executor.execute([call('bad')]);
    expect(record).toMatchObject({ ok: false, errorKind: 'failed', output: 'Tool bad failed: disk full', attempts: 1 });
    expect(record.error).toBe(record.output);
  });

  it('reports a thrown string and a thrown object', async () => {
    const { executor } = setup([
      tool('str', () => {
        throw 'plain string';
      }),
      tool('obj', async () => {
        throw { code: 42 };
      }),
    ]);
    const records = await executor.execute([call('str'), call('obj')]);
    expect(records.map((r) => r.output)).toEqual(['Tool str failed: plain string', 'Tool obj failed: {"code":42}']);
  });

  it('retries RetryableToolError with backoff and counts the attempts', async () => {
    let runs = 0;
    const flaky = tool(
      'flaky',
      () => {
        runs++;
        if (runs < 3) throw new RetryableToolError('busy', { retryAfterMs: 1 });
        return 'finally';
      },
      { retries: 3 },
    );
    const { executor } = setup([flaky]);
    const [record] = await executor.execute([call('flaky')]);
    expect(record).toMatchObject({ ok: true, output: 'finally', attempts: 3 });
  });

  it('retries network errors (ECONNRESET), also when wrapped as a cause', async () => {
    let runs = 0;
    const net = tool('net', async () => {
      runs++;
      if (runs === 1) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      if (runs === 2) throw new TypeError('fetch failed', { cause: { code: 'UND_ERR_SOCKET' } });
      return 'connected';
    });
    const { executor } = setup([net]);
    const [record] = await executor.execute([call('net')]);
    expect(record).toMatchObject({ ok: true, output: 'connected', attempts: 3 });
  });

  it('stops retrying after the tool’s retries and reports the last error', async () => {
    const { executor } = setup([
      tool(
        'down',
        () => {
          throw new RetryableToolError('still down');
        },
        { retries: 1 },
      ),
    ]);
    const [record] = await executor.execute([call('down')]);
    expect(record).toMatchObject({ ok: false, output: 'Tool down failed: still down', attempts: 2 });
  });

  it('does not retry ordinary errors', async () => {
    let runs = 0;
    const { executor } = setup([
      tool('once', () => {
        runs++;
        throw new Error('bug');
      }),
    ]);
    await executor.execute([call('once')]);
    expect(runs).toBe(1);
  });

  it('disables a tool after it fails maxFailures times in the run and tells the model', async () => {
    const { executor, registry } = setup(
      [
        tool('broken', () => {
          throw new Error('nope');
        }),
        tool('fine', () => 'ok'),
      ],
      { maxFailures: 2 },
    );
    const [first] = await executor.execute([call('broken')]);
    expect(first.output).toBe('Tool broken failed: nope');
    const [second] = await executor.execute([call('broken')]);
    expect(second.output).toContain('Tool broken failed: nope');
    expect(second.output).toContain('Tool broken has failed 2 times in this run and is now disabled');
    expect(registry.isEnabled('broken')).toBe(false);
    expect(registry.specs().map((s) => s.name)).toEqual(['fine']);
    const [third] = await executor.execute([call('broken')]);
    expect(third).toMatchObject({ ok: false, errorKind: 'disabled', attempts: 0 });
    expect(third.output).toContain('disabled for the rest of this run because it failed 2 times');
    expect(executor.failures('broken')).toBe(2);
  });

  it('counts timeouts as failures but not aborts', async () => {
    const { executor } = setup([tool('hang', () => new Promise(() => {}), { timeoutMs: 5 })], { maxFailures: 1 });
    const [record] = await executor.execute([call('hang')]);
    expect(record.output).toContain('is now disabled');
  });

  it('cuts long observations to head and tail with a marker', async () => {
    const text = `${'H'.repeat(5000)}${'T'.repeat(5000)}`;
    const { executor } = setup([tool('long', () => text)], { observationLimit: 300 });
    const [record] = await executor.execute([call('long')]);
    expect(record.output.length).toBeLessThanOrEqual(300);
    expect(record.output.startsWith('HHH')).toBe(true);
    expect(record.output.endsWith('TTT')).toBe(true);
    const cut = Number(/\[\.\.\. ([\d,]+) characters cut \.\.\.\]/.exec(record.output)?.[1].replace(/,/g, ''));
    const kept = record.output.replace(/\n\[\.\.\. [\d,]+ characters cut \.\.\.\]\n/, '').length;
    expect(cut + kept).toBe(text.length);
  });

  it('truncates a long input in the records, keeping the tool’s own input whole', async () => {
    let received = '';
    const { executor } = setup(
      [
        tool('big', ({ q }) => {
          received = q ?? '';
          return 'ok';
        }),
      ],
      { observationLimit: 100 },
    );
    const [record] = await executor.execute([call('big', { q: 'x'.repeat(1000) })]);
    expect(received.length).toBe(1000);
    expect(typeof record.input).toBe('string');
    expect((record.input as string).length).toBeLessThanOrEqual(100);
  });

  it('answers an unknown tool with the available tools and the closest name', async () => {
    const { executor } = setup([tool('search', () => 'r'), tool('calculator', () => 1)]);
    const [record] = await executor.execute([call('serch')]);
    expect(record).toMatchObject({ ok: false, errorKind: 'unknown_tool', tool: undefined, attempts: 0 });
    expect(record.output).toContain('Did you mean "search"?');
    expect(record.output).toContain('Available tools: search, calculator.');
  });

  it('resolves a forgiving name to the registered tool', async () => {
    const { executor } = setup([tool('get_weather', () => 'sunny')]);
    const [record] = await executor.execute([call('Get-Weather()')]);
    expect(record).toMatchObject({ ok: true, name: 'Get-Weather()', tool: 'get_weather', output: 'sunny' });
  });

  it('turns invalid arguments into an observation and never runs the tool', async () => {
    let ran = false;
    const strict = defineTool({
      name: 'add',
      description: 'Adds.',
      input: z.object({ a: z.number(), b: z.number() }),
      run: ({ a, b }) => {
        ran = true;
        return a + b;
      },
    });
    const registry = new ToolRegistry([strict]);
    const executor = createToolExecutor({ registry });
    const [record] = await executor.execute([{ id: '1', name: 'add', input: { a: 'one' } }]);
    expect(ran).toBe(false);
    expect(record).toMatchObject({ ok: false, errorKind: 'invalid_input', attempts: 0 });
    expect(record.output).toContain('- "a": expected number, got string "one"');
    expect(record.output).toContain('- "b": missing required field (expected number)');
    expect(record.output).toContain('Example of a valid call: add {"a":1,"b":1}');
  });
});
