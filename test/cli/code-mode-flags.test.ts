import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-code-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A `scripted:FILE.json` model spec serving these replies in order. */
function scripted(name: string, replies: unknown[]): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(replies));
  return `scripted:${file}`;
}

const events = (trace: string) =>
  readFileSync(trace, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; tool?: string; parentCallId?: string; tools?: string[] });

describe('code mode from the CLI', { timeout: 300_000 }, () => {
  it('--protocol code: the model writes a program that calls the kit tools, and final_answer ends the run', async () => {
    const model = scripted('protocol-code', [
      'Thought: compute it.\n```js\nconst product = await tools.calculator({ expression: "6 * 7" });\nfinal_answer(product)\n```',
    ]);
    const trace = join(dir, 'protocol-code.jsonl');
    const result = await runCli([
      'run',
      '-m',
      model,
      '--protocol',
      'code',
      '--tools',
      'calculator',
      '--trace',
      trace,
      'go',
    ]);
    expect(result.stderr).not.toContain('invalid choice');
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('42');
    const calculator = events(trace).find((e) => e.type === 'tool_end' && e.tool === 'calculator');
    expect(calculator?.parentCallId).toBeDefined();
  });

  it('--code-mode offers run_code beside the kit tools, over the same executor', async () => {
    const program = 'const a = await tools.calculator({ expression: "2 + 3" });\nreturn Number(a) * 10;';
    const model = scripted('code-mode', [
      { text: '', toolCalls: [{ id: 'c1', name: 'run_code', arguments: JSON.stringify({ code: program }) }] },
      'It is 50.',
    ]);
    const trace = join(dir, 'code-mode.jsonl');
    const result = await runCli(['run', '-m', model, '--code-mode', '--tools', 'calculator', '--trace', trace, 'go']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('It is 50.');
    const all = events(trace);
    expect(all.find((e) => e.type === 'run_start')?.tools).toEqual(['calculator', 'run_code']);
    const runCode = all.find((e) => e.type === 'tool_end' && e.tool === 'run_code') as { output?: string } | undefined;
    expect(runCode?.output).toContain('Returned: 50');
    expect(all.find((e) => e.type === 'tool_end' && e.tool === 'calculator')?.parentCallId).toBe('c1');
  });

  it('--code-mode with --protocol code is refused with a message naming both', async () => {
    const result = await runCli(['run', '-m', 'demo', '--code-mode', '--protocol', 'code', 'hi']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/--code-mode .* --protocol code/);
  });
});
