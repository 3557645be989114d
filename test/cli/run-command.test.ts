import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOllamaServer } from '../llm/providers/ollama-server.js';
import { startOpenAIServer } from '../llm/providers/openai-server.js';
import type { WireServer } from '../llm/providers/wire-server.js';
import { runCli } from './run-cli.js';

describe('thinkflow run (spawned CLI)', { timeout: 180_000 }, () => {
  let server: WireServer;
  let dir: string;
  beforeAll(async () => {
    server = await startOpenAIServer();
    dir = mkdtempSync(join(tmpdir(), 'thinkflow-cli-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs against an OpenAI-compatible server: tool call, observation, answer on stdout, trace without secrets', async () => {
    server.reset();
    server.push(
      {
        text: '',
        toolCalls: [{ id: 'call_1', name: 'calculator', arguments: '{"expression":"6*7"}' }],
        usage: { promptTokens: 50, completionTokens: 10 },
      },
      { text: 'The answer is 42.', usage: { promptTokens: 80, completionTokens: 8 } },
    );
    const trace = join(dir, 'run.jsonl');
    const result = await runCli(
      [
        'run',
        '--model',
        `compat:${server.url}/v1#test-model`,
        '--tools',
        'calculator',
        '--trace',
        trace,
        'What is 6*7?',
      ],
      {
        env: { OPENAI_API_KEY: 'sk-test-SECRET-123456789' },
      },
    );
    expect(result.stderr).toMatch(/├─ action\s+calculator \{"expression":"6\*7"\}/);
    expect(result.stderr).toMatch(/└─ observation\s+42 · \d+ ms/);
    expect(result.stdout.trim()).toBe('The answer is 42.');
    expect(result.code).toBe(0);
    const lines = readFileSync(trace, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].type).toBe('run_start');
    expect(lines.at(-1).type).toBe('run_end');
    expect(readFileSync(trace, 'utf8')).not.toContain('SECRET');
    expect(server.requests[0].body.tools).toBeDefined();
  });

  it('--json prints the RunResult', async () => {
    server.reset();
    server.push('Just an answer.');
    const result = await runCli(['run', '--model', `compat:${server.url}/v1#m`, '--json', 'hello']);
    const parsed = JSON.parse(result.stdout);
    expect(parsed).toMatchObject({ status: 'done', output: 'Just an answer.' });
    expect(parsed.usage.llmCalls).toBe(1);
  });

  it('--model demo shows the whole loop with no LLM and says it is a simulation', async () => {
    const result = await runCli(['run', '--model', 'demo', 'What is the weather in Paris and what is 23 * 7 + 4?']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/simulation/i);
    expect(result.stderr).toMatch(/action\s+weather/);
    expect(result.stderr).toMatch(/action\s+calculator/);
    expect(result.stdout).toMatch(/165/);
    expect(result.stdout).toMatch(/Paris/);
    expect(result.stdout).toMatch(/simulation/i);
  });

  it('with no model configured and no local model, uses an Ollama that answers', async () => {
    const ollama = await startOllamaServer();
    try {
      ollama.push(
        { kind: 'json', body: { version: '0.5.7' } },
        { kind: 'json', body: { models: [{ name: 'llama3.2:latest' }] } },
        'Hello from Ollama.',
      );
      const result = await runCli(['run', 'hello'], { env: { THINKFLOW_HOME: dir, OLLAMA_HOST: ollama.url } });
      expect(result.stdout.trim()).toBe('Hello from Ollama.');
      expect(ollama.requests.map((r) => r.path)).toEqual(['/api/version', '/api/tags', '/api/chat']);
      expect(ollama.requests[2].body.model).toBe('llama3.2:latest');
    } finally {
      await ollama.close();
    }
  });

  it('with no model configured, exits non-zero and lists how to configure one', async () => {
    const result = await runCli(['run', 'hello'], {
      env: {
        THINKFLOW_MODEL: undefined,
        OPENAI_API_KEY: undefined,
        THINKFLOW_HOME: dir,
        OLLAMA_HOST: 'http://127.0.0.1:9',
      },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/No model is configured/);
    expect(result.stderr).toMatch(/--model demo/);
    expect(result.stderr).toMatch(/openai:/);
    expect(result.stdout).toBe('');
  });

  it('an unknown tool kit is a clear error', async () => {
    const result = await runCli(['run', '--model', 'demo', '--tools', 'nope', 'x']);
    expect(result.code).toBe(2); // a usage error: the person fixes the command
    expect(result.stderr).toMatch(/Unknown tool kit "nope". Available: demo, calculator/);
  });
});
