import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_ENTRY, TSX_LOADER } from './run-cli.js';

const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const COLOUR = /\x1b\[\d+m/;

/** Runs the CLI under a pseudo-terminal (util-linux `script`): stdout and stderr are both a TTY, merged. */
async function inTerminal(args: string[], env: Record<string, string | undefined> = {}) {
  const command = [process.execPath, '--import', TSX_LOADER, '--', CLI_ENTRY, ...args].map(quote).join(' ');
  const result = await promisify(execFile)('script', ['-qefc', command, '/dev/null'], {
    env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: 'xterm', ...env },
    timeout: 170_000,
  }).then(
    (ok) => ({ code: 0, output: ok.stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
  );
  return result;
}

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-cli-tty-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!hasScript)('on a terminal (pseudo-terminal through `script`)', { timeout: 300_000 }, () => {
  it('`run` draws the step tree in colour; NO_COLOR turns the colour off', async () => {
    const coloured = await inTerminal(['run', '-m', 'demo', 'What is (15 + 7) * 3?']);
    expect(coloured.code).toBe(0);
    expect(coloured.output).toMatch(COLOUR);
    const plain = coloured.output.replace(/\x1b\[[\d;]*[A-Za-z]/g, '');
    expect(plain).toMatch(/step 0 · \d+ ms/);
    expect(plain).toMatch(/├─ action +calculator \{"expression":"\(15 \+ 7\) \* 3"\}/);
    expect(plain).toMatch(/└─ observation +66 · \d+ ms/);
    expect(plain).toContain('[demo simulation, no real LLM] (15 + 7) * 3 = 66');
    const uncoloured = await inTerminal(['run', '-m', 'demo', 'What is 2 + 2?'], { NO_COLOR: '1' });
    expect(uncoloured.output).not.toMatch(COLOUR);
    expect(uncoloured.output).toMatch(/└─ observation +4/);
  });

  it('`run --quiet` prints nothing but the answer, even on a terminal', async () => {
    const quiet = await inTerminal(['run', '-m', 'demo', '-q', 'What is 2^10?']);
    expect(quiet.output.replace(/\r/g, '')).toBe('[demo simulation, no real LLM] 2^10 = 1024\n');
  });

  it('`eval` redraws a progress bar with pass and fail counts, then the table', async () => {
    writeFileSync(join(dir, 'right.json'), JSON.stringify(['4']));
    writeFileSync(join(dir, 'wrong.json'), JSON.stringify(['5']));
    const suite = join(dir, 'suite.yaml');
    writeFileSync(
      suite,
      [
        'name: tty',
        'cases:',
        '  - { id: right, input: "2+2?", model: "scripted:right.json", checks: [{ numeric: 4 }] }',
        '  - { id: wrong, input: "2+2?", model: "scripted:wrong.json", checks: [{ numeric: 4 }] }',
      ].join('\n'),
    );
    const result = await inTerminal(['eval', suite, '--concurrency', '1']);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/\r\x1b\[Keval tty \[#{12}-{12}\] 1\/2 · 1 passed · 0 failed/);
    expect(result.output).toMatch(/\r\x1b\[Keval tty \[#{24}\] 2\/2 · 1 passed · 1 failed/);
    expect(result.output.replace(/\x1b\[[\d;]*m/g, '')).toContain('pass rate 50% (1/2 runs)');
  });
});
