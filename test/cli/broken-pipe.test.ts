import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TSX_LOADER } from './run-cli.js';

const MODULE = join(import.meta.dirname, '..', '..', 'src', 'cli', 'broken-pipe.ts');

/**
 * A process that installs the CLI's pipe handling (as a service or not), waits for its stdout's reader to
 * leave, then writes; it reports on stderr what became of it and ends with exit code 3 if it lived on.
 */
function writer(service: boolean): Promise<{ code: number | null; stderr: string }> {
  const script = `
    const { handleBrokenPipes, keepServingOnBrokenPipe } = await import(${JSON.stringify(MODULE)});
    handleBrokenPipes();
    ${service ? 'keepServingOnBrokenPipe();' : ''}
    process.exitCode = 5;
    setTimeout(() => {
      for (let i = 0; i < 200; i++) process.stdout.write('line ' + i + '\\n');
      setTimeout(() => { process.stderr.write('still serving\\n'); process.exit(3); }, 300);
    }, 500);`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy(); // the reader leaves before the first line
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a reader that leaves the pipe', () => {
  it('ends a command quietly with the exit code it had, and leaves a service serving', async () => {
    const command = await writer(false);
    expect(command).toEqual({ code: 5, stderr: '' });
    const service = await writer(true);
    expect(service).toEqual({ code: 3, stderr: 'still serving\n' });
  }, 60_000);
});
