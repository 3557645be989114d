import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { type CommandIo, registerTraceCommand } from '../../src/cli/trace-command.js';
import { sampleTrace } from '../trace/sample-trace.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'thinkflow-trace-cli-'));
const traceFile = join(dir, 'run.jsonl');
writeFileSync(
  traceFile,
  `${sampleTrace()
    .map((e) => JSON.stringify(e))
    .join('\n')}\n`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function program(): { program: Command; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), color: false };
  const p = new Command('thinkflow').exitOverride();
  registerTraceCommand(p, io);
  return { program: p, out, err };
}

describe('thinkflow trace', () => {
  it('show prints the timeline', async () => {
    const { program: p, out } = program();
    await p.parseAsync(['node', 'thinkflow', 'trace', 'show', traceFile]);
    expect(out.join('')).toContain('done in 402 ms');
    expect(out.join('')).toContain('→ calculator');
  });

  it('html writes a report file', async () => {
    const { program: p, err } = program();
    const output = join(dir, 'report.html');
    await p.parseAsync(['node', 'thinkflow', 'trace', 'html', traceFile, '-o', output]);
    expect(readFileSync(output, 'utf8')).toContain('<details class="step" id="step-1">');
    expect(err.join('')).toContain(`wrote ${output}`);
  });

  it('show names the bad line of a broken trace', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"type":"run_start"}\nnot json\n');
    const { program: p } = program();
    await expect(p.parseAsync(['node', 'thinkflow', 'trace', 'show', bad])).rejects.toThrow(/bad\.jsonl line 2/);
  });

  it('runs as a process with no colour when stdout is not a TTY', async () => {
    const main = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', main, 'trace', 'show', traceFile], {
      env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '' },
    });
    expect(stdout).toContain('final The answer is 4.');
    expect(stdout).not.toMatch(/\u001b\[/);
  }, 120_000);
});
