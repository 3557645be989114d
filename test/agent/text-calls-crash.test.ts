import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Checkpoint, scriptedModel } from '../../src/index.js';
import { lines } from '../server/server-fixtures.js';
import { crashTools, REPLY } from './fixtures/text-calls-crash.js';

const CHILD = join(import.meta.dirname, 'fixtures', 'text-calls-crash.ts');
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function readCheckpoint(file: string): Checkpoint | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Checkpoint) : undefined;
}

/** Polls until `read` returns something, or fails after `ms`. */
async function until<T>(read: () => T | undefined, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting for the child process');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('kill -9 between the calls of one text reply', () => {
  it('resumes the step without running its finished calls again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tf-text-crash-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const env = {
      COUNT_FILE: join(dir, 'calls.txt'),
      GATE_FILE: join(dir, 'gate'),
      CHECKPOINT_FILE: join(dir, 'checkpoint.json'),
    };
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    cleanups.push(() => child.kill('SIGKILL'));

    // Both quick calls ended and were checkpointed; the slow one started and waits.
    const crashed = await until(() => {
      const checkpoint = readCheckpoint(env.CHECKPOINT_FILE);
      const done = checkpoint?.pending?.done.map((c) => c.name).sort() ?? [];
      return done.join() === 'charge,lookup' && lines(env.COUNT_FILE).includes('slow-start') ? checkpoint : undefined;
    }, 60_000);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(crashed.pending?.calls.map((c) => c.name)).toEqual(['lookup', 'charge', 'slow']);

    // A new process would load the same checkpoint: the run resumes from what the child wrote last.
    const checkpoint = readCheckpoint(env.CHECKPOINT_FILE) as Checkpoint;
    const model = scriptedModel(['Final Answer: Finished after a restart.']);
    const tools = crashTools(env.COUNT_FILE, env.GATE_FILE);
    const result = await new Agent({ model, tools, protocol: 'react' }).run('pay', {
      runId: 'text-crash',
      resume: checkpoint,
    });
    expect(result.status).toBe('done');
    expect(result.output).toBe('Finished after a restart.');
    const calls = lines(env.COUNT_FILE);
    expect(calls.filter((c) => c === 'lookup')).toHaveLength(1);
    expect(calls.filter((c) => c === 'charge')).toHaveLength(1);
    expect(calls.filter((c) => c === 'slow-start')).toHaveLength(1);
    const step = result.steps[0];
    expect(step.raw).toBe(REPLY);
    expect(step.toolCalls.map((c) => c.output)).toEqual([
      'lookup 1 result',
      'charge 2 result',
      expect.stringMatching(/The call to slow was interrupted by a restart/),
    ]);
    // The model was asked once more, told about all three calls, in call order.
    expect(model.calls).toHaveLength(1);
    const told = JSON.stringify(model.calls[0].messages);
    expect(told.indexOf('lookup 1 result')).toBeLessThan(told.indexOf('charge 2 result'));
    expect(told).toContain('interrupted by a restart');
  }, 120_000);
});
