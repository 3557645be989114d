import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { replayTrace } from '../../src/cli/replay-command.js';
import type { CommandIo } from '../../src/cli/trace-command.js';
import { scriptedModel } from '../../src/llm/index.js';
import { calculatorTool } from '../../src/tools/index.js';

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-replay-cli-'));
const traceFile = join(dir, 'run.jsonl');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const model = scriptedModel([
    { text: 'Let me compute.', toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }] },
    'The answer is 42.',
  ]);
  const agent = new Agent({ model, tools: [calculatorTool], protocol: 'native', traceFile, streaming: false });
  expect((await agent.run('What is 6 times 7?')).status).toBe('done');
});

function io(): CommandIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t) => out.push(t), stderr: (t) => err.push(t), color: false };
}

function tampered(name: string): string {
  const path = join(dir, name);
  const text = readFileSync(traceFile, 'utf8');
  const lines = text.split('\n').map((line) => {
    if (!line) return line;
    const event = JSON.parse(line);
    if (event.type === 'tool_end') event.output = '41';
    if (event.type === 'model_request' && event.step === 1) {
      for (const m of event.messages) if (m.role === 'tool') m.content = '41';
    }
    return JSON.stringify(event);
  });
  writeFileSync(path, lines.join('\n'));
  return path;
}

describe('thinkflow replay', () => {
  it('asks which run to replay when the file holds several (--trace appends), and replays the one --run names', async () => {
    const both = join(dir, 'both.jsonl');
    const model = scriptedModel([
      { text: '', toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"1+1"}' }] },
      'Two.',
      'Just text.',
    ]);
    const agent = new Agent({ model, tools: [calculatorTool], protocol: 'native', traceFile: both, streaming: false });
    const first = await agent.run('What is 1+1?');
    const second = await agent.run('Say something.');
    await expect(replayTrace(both, {}, io())).rejects.toThrow(
      new RegExp(
        `both\\.jsonl holds 2 runs \\(1: ${first.runId}, 2: ${second.runId}\\): choose one with --run N or --run RUN_ID`,
      ),
    );
    const out = io();
    expect(await replayTrace(both, { run: '2' }, out)).toBe(0);
    expect(out.out.join('')).toContain('replayed 1 step: done (recorded: done)');
    expect(await replayTrace(both, { run: first.runId }, io())).toBe(0);
    await expect(replayTrace(both, { run: '3' }, io())).rejects.toThrow(
      /--run 3: .* holds 2 runs; give a position from 1 to 2 or a run id/,
    );
  });

  it('re-runs a trace with its recorded replies and the real tools: no divergence, exit 0', async () => {
    const out = io();
    expect(await replayTrace(traceFile, {}, out)).toBe(0);
    expect(out.out.join('')).toContain('replayed 2 steps: done (recorded: done)');
    expect(out.out.join('')).toContain('no divergence');
  });

  it('shows the steps replayed as a progress bar on a terminal, and nothing elsewhere', async () => {
    const bar: string[] = [];
    const out = { ...io(), progress: { write: (t: string) => bar.push(t), tty: true } };
    await replayTrace(traceFile, {}, out);
    expect(bar.join('')).toContain('\r\x1b[Kreplaying steps [############------------] 1/2');
    expect(bar.join('')).toContain('\r\x1b[Kreplaying steps [########################] 2/2');
    expect(bar.at(-1)).toBe('\r\x1b[K');
    const piped = { ...io(), progress: { write: (t: string) => bar.push(t), tty: false } };
    bar.length = 0;
    await replayTrace(traceFile, {}, piped);
    expect(bar).toEqual([]);
    expect(piped.err).toEqual([]);
  });

  it('reports the first step where a tool now answers differently, exit 1', async () => {
    const out = io();
    expect(await replayTrace(tampered('changed.jsonl'), {}, out)).toBe(1);
    const text = out.out.join('');
    expect(text).toContain('diverged at step 0 (tool_output): calculator returned something else');
    expect(text).toContain('recorded: 41');
    expect(text).toContain('now:      42');
  });

  it('answers tools from the trace with --recorded-tools, and prints JSON with --json', async () => {
    const out = io();
    expect(await replayTrace(tampered('changed2.jsonl'), { recordedTools: true, json: true }, out)).toBe(0);
    expect(JSON.parse(out.out.join(''))).toEqual({ status: 'done', recordedStatus: 'done', steps: 2 });
  });

  it('writes the new run as a trace and shows its timeline', async () => {
    const out = io();
    const newTrace = join(dir, 'new.jsonl');
    await replayTrace(traceFile, { trace: newTrace, show: true }, out);
    expect(readFileSync(newTrace, 'utf8')).toContain('"type":"run_end"');
    expect(out.err.join('')).toContain('final The answer is 42.');
  });

  it('--model runs a different model and reports where its replies differ', async () => {
    const script = join(dir, 'other.json');
    writeFileSync(script, JSON.stringify(['I think it is 41.']));
    const out = io();
    expect(await replayTrace(traceFile, { model: `scripted:${script}` }, out)).toBe(1);
    expect(out.out.join('')).toContain('diverged at step 0 (model_response): the model replied differently');
    expect(out.out.join('')).toContain('now:      I think it is 41.');
  });

  it('refuses a file with no run_start', async () => {
    const path = join(dir, 'partial.jsonl');
    writeFileSync(path, '{"type":"step_start","runId":"r","ts":1,"step":0}\n');
    await expect(replayTrace(path, {}, io())).rejects.toThrow(/no run_start event/);
  });
});
