import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/index.js';
import { redactedJson, redactText } from '../../src/trace/index.js';
import { parseTrace, readTrace } from '../../src/trace/trace-line.js';
import { createTraceWriter } from '../../src/trace/trace-writer.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'thinkflow-trace-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const start: AgentEvent = {
  type: 'run_start',
  runId: 'r1',
  ts: 1,
  input: 'hi',
  model: 'scripted',
  protocol: 'native',
  tools: [],
};

describe('parseTrace', () => {
  it('reads one event per line and skips blank lines', () => {
    const text = `${JSON.stringify(start)}\n\n${JSON.stringify({ type: 'step_start', runId: 'r1', ts: 2, step: 1 })}\n`;
    const events = parseTrace(text);
    expect(events.map((e) => e.type)).toEqual(['run_start', 'step_start']);
  });

  it('reads a trace that starts with a byte-order mark', () => {
    expect(parseTrace(`\uFEFF${JSON.stringify(start)}\n`).map((e) => e.type)).toEqual(['run_start']);
  });

  it('keeps event types it does not know (lenient)', () => {
    const events = parseTrace('{"type":"future_event","runId":"r","ts":1,"extra":{"a":1}}');
    expect(events[0]).toMatchObject({ type: 'future_event', extra: { a: 1 } });
  });

  it('names the line number of a line that is not JSON', () => {
    expect(() => parseTrace(`${JSON.stringify(start)}\n{oops\n`, 'run.jsonl')).toThrow(
      /run\.jsonl line 2: not valid JSON/,
    );
    expect(() => parseTrace(`${JSON.stringify(start)}\n{oops\n${JSON.stringify(start)}`, 'run.jsonl')).toThrow(
      /run\.jsonl line 2: not valid JSON/,
    );
  });

  it('leaves out a last line cut off while it was written (no newline after it), and reads the events before it', () => {
    const step = JSON.stringify({ type: 'step_start', runId: 'r1', ts: 2, step: 1 });
    const cut = `${JSON.stringify(start)}\n${step.slice(0, 20)}`;
    expect(parseTrace(cut, 'run.jsonl').map((e) => e.type)).toEqual(['run_start']);
    // Whole, the same last line without its newline is read.
    expect(parseTrace(`${JSON.stringify(start)}\n${step}`).map((e) => e.type)).toEqual(['run_start', 'step_start']);
  });

  it('names the line number of a line without a type', () => {
    expect(() => parseTrace('\n\n{"runId":"r"}')).toThrow(/line 3: not an event/);
  });

  it('readTrace explains a missing file', () => {
    expect(() => readTrace(join(tempDir(), 'nope.jsonl'))).toThrow(/Cannot read trace file .*nope\.jsonl/);
  });
});

describe('createTraceWriter', () => {
  it('appends events that readTrace reads back', () => {
    const path = join(tempDir(), 'sub', 'run.jsonl');
    const first = createTraceWriter(path);
    first.write(start);
    first.close();
    const second = createTraceWriter(path);
    second.write({ type: 'step_start', runId: 'r1', ts: 2, step: 1 });
    second.close();
    second.write({ type: 'step_start', runId: 'r1', ts: 3, step: 2 });
    expect(readTrace(path)).toEqual([start, { type: 'step_start', runId: 'r1', ts: 2, step: 1 }]);
  });

  it('redacts API keys and authorization fields', () => {
    const path = join(tempDir(), 'run.jsonl');
    const writer = createTraceWriter(path);
    writer.write({ ...start, input: 'use sk-abcdefghijklmnopqrstuvwx please' });
    writer.write({
      type: 'tool_start',
      runId: 'r1',
      ts: 2,
      step: 1,
      callId: 'c1',
      tool: 'http',
      input: { headers: { Authorization: 'token-xyz', note: 'Bearer abcdefghijkl123' }, apiKey: 'k-1234' },
    });
    writer.close();
    const text = readFileSync(path, 'utf8');
    expect(text).not.toMatch(/sk-abc|token-xyz|abcdefghijkl123|k-1234/);
    const [first, second] = readTrace(path);
    expect(first).toMatchObject({ input: 'use [redacted] please' });
    expect(second).toMatchObject({
      input: { headers: { Authorization: '[redacted]', note: '[redacted]' }, apiKey: '[redacted]' },
    });
  });
});

describe('createTraceWriter batching', () => {
  const end: AgentEvent = {
    type: 'run_end',
    runId: 'r1',
    ts: 9,
    status: 'done',
    output: 'ok',
    usage: { promptTokens: 0, completionTokens: 0, llmCalls: 0 },
    durationMs: 8,
  };

  it('writes queued lines at the end of the tick, and at once on run_end', async () => {
    const path = join(tempDir(), 'run.jsonl');
    const writer = createTraceWriter(path);
    writer.write(start);
    expect(readFileSync(path, 'utf8')).toBe('');
    await new Promise((resolve) => setImmediate(resolve));
    expect(readTrace(path)).toHaveLength(1);
    writer.write({ type: 'step_start', runId: 'r1', ts: 2, step: 0 });
    writer.write(end);
    expect(readTrace(path).map((e) => e.type)).toEqual(['run_start', 'step_start', 'run_end']);
    writer.close();
  });

  it('flushes when the process dies of an uncaught error', async () => {
    const dir = tempDir();
    const path = join(dir, 'crash.jsonl');
    const script = join(dir, 'crash.mts');
    const writerUrl = pathToFileURL(join(import.meta.dirname, '..', '..', 'src', 'trace', 'trace-writer.ts')).href;
    writeFileSync(
      script,
      `import { createTraceWriter } from ${JSON.stringify(writerUrl)};\nconst w = createTraceWriter(${JSON.stringify(path)});\nw.write(${JSON.stringify(start)});\nthrow new Error('crash');\n`,
    );
    const code = await new Promise<number | null>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', script], { cwd: join(import.meta.dirname, '..', '..') }, (error) =>
        resolve(error ? ((error as { code?: number }).code ?? 1) : 0),
      );
    });
    expect(code).not.toBe(0);
    expect(readTrace(path)).toEqual([start]);
  }, 120_000);
});

describe('redactedJson', () => {
  it('is plain JSON when nothing looks secret, and redacts keys, bearer tokens after newlines and key fields', () => {
    const clean = { type: 'x', text: 'task-force of 20 people', nested: [{ a: 1 }] };
    expect(redactedJson(clean)).toBe(JSON.stringify(clean));
    const dirty = {
      text: 'header:\nBearer abcdefghijk',
      list: ['sk-proj-0123456789abcdefXYZ'],
      headers: { 'x-api-key': 'short' },
    };
    expect(JSON.parse(redactedJson(dirty))).toEqual({
      text: 'header:\n[redacted]',
      list: ['[redacted]'],
      headers: { 'x-api-key': '[redacted]' },
    });
    expect(redactText('ask-abcdefghijklmnopqrstuvwxyz')).toBe('ask-abcdefghijklmnopqrstuvwxyz');
  });
});
