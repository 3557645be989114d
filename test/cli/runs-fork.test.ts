import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, loadConfig, type RunRecord, SqliteRunStore } from '../../src/server/index.js';
import { postJson, tempDir } from '../server/server-fixtures.js';
import { runCli } from './run-cli.js';

const CONFIG = join(import.meta.dirname, 'fixtures', 'fork.config.ts');
const dir = tempDir();
const calls = join(dir.path, 'calls.txt');
let source: RunRecord;

beforeAll(async () => {
  const store = new SqliteRunStore({ path: join(dir.path, 'runs.db') });
  const app = createApp({ agents: (await loadConfig(CONFIG)).agents, store });
  const response = await app.fetch(
    new Request('http://localhost/v1/agents/echo/runs?wait=true', postJson({ input: 'Echo three times.' })),
  );
  source = (await response.json()) as RunRecord;
  await app.runs.close();
  await store.close();
});
afterAll(() => dir.cleanup());

const modelCalls = () => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean).length : 0);
const fork = (...args: string[]) =>
  runCli(['runs', 'fork', source.id, '--config', CONFIG, '--data-dir', dir.path, ...args], {
    env: { FORK_CALLS: calls },
  });

describe('thinkflow runs fork', () => {
  it('runs a stored run again from a step with the config agent, asking the model from that step only', async () => {
    expect(source.status).toBe('done');
    const before = modelCalls();
    const result = await fork('--from-step', '2');
    expect(result.code, result.stderr).toBe(0);
    const run = JSON.parse(result.stdout) as RunRecord;
    expect(run).toMatchObject({ status: 'done', forkedFrom: { runId: source.id, fromStep: 2 } });
    expect(run.result?.output).toBe('Saw: echo: step 0, echo: step 1, echo: step 2');
    expect(modelCalls() - before).toBe(2);
  });

  it('sends the messages of a --messages file at that step, and names what is wrong with a bad one', async () => {
    const file = join(dir.path, 'edited.json');
    writeFileSync(
      file,
      JSON.stringify([
        { role: 'system', content: 'You echo.' },
        { role: 'user', content: 'Echo.' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'echo', arguments: '{"text":"edited"}' }] },
        { role: 'tool', toolCallId: 'x', content: 'echo: edited' },
      ]),
    );
    const result = await fork('--from-step', '1', '--messages', file);
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as RunRecord).result?.output).toBe(
      'Saw: echo: edited, echo: step 1, echo: step 2',
    );

    writeFileSync(file, JSON.stringify([{ role: 'robot' }]));
    const bad = await fork('--from-step', '1', '--messages', file);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--messages .* must hold a list of messages/);
    const far = await fork('--from-step', '9');
    expect(far.code).toBe(2);
    expect(far.stderr).toMatch(/fromStep must be a step of run .*0 to 3/);
  });
});
