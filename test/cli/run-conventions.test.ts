import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../llm/providers/openai-server.js';
import type { WireServer } from '../llm/providers/wire-server.js';
import { CLI_ENTRY, runCli } from './run-cli.js';

const run = promisify(execFile);

describe('thinkflow run: stdin, exit codes and --json (spawned CLI)', { timeout: 180_000 }, () => {
  let server: WireServer;
  let dir: string;
  beforeAll(async () => {
    server = await startOpenAIServer();
    dir = mkdtempSync(join(tmpdir(), 'thinkflow-run-conv-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const compat = () => `compat:${server.url}/v1#m`;

  it('answers the issue’s questions with the whole expression, exit 0', async () => {
    const en = await runCli(['run', '--model', 'demo', 'What is (15 + 7) * 3?']);
    expect(en.stdout).toBe('[demo simulation, no real LLM] (15 + 7) * 3 = 66\n');
    expect(en.stderr).toMatch(/action\s+calculator \{"expression":"\(15 \+ 7\) \* 3"\}/);
    expect(en.code).toBe(0);
    const zh = await runCli(['run', '--model', 'demo', '--quiet', '计算一下 (15+7)*3 等于多少']);
    expect(zh.stdout).toBe('【演示模拟，未使用真实模型】(15+7)*3 = 66\n');
    expect(zh.stderr).toBe('');
  });

  it('reads the question from a shell pipe, and from `-`', async () => {
    const piped = await run(
      'sh',
      ['-c', `printf 'What is 2^10?' | "${process.execPath}" --import tsx "${CLI_ENTRY}" run -m demo -q`],
      {
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    expect(piped.stdout).toBe('[demo simulation, no real LLM] 2^10 = 1024\n');
    const dash = await runCli(['run', '-m', 'demo', '-q', '-'], { input: 'What is 7 times 8?\n' });
    expect(dash.stdout).toBe('[demo simulation, no real LLM] 7 * 8 = 56\n');
    expect(dash.code).toBe(0);
  });

  it('with a question and piped text, the text is context appended to the question', async () => {
    server.reset();
    server.push('It is a list of fruit.');
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'apples\npears\n');
    const result = await runCli(['run', '-m', compat(), '-q', 'What is this?'], { stdinFile: notes });
    expect(result.stdout).toBe('It is a list of fruit.\n');
    const messages = server.requests[0].body.messages as { role: string; content: string }[];
    expect(messages.at(-1)?.content).toBe('What is this?\n\napples\npears');
  });

  it('--json prints the RunResult on stdout and nothing else; exit 1 when the run ends without an answer', async () => {
    const script = join(dir, 'loop.json');
    writeFileSync(script, JSON.stringify(['Thought: go\nAction: calculator\nAction Input: {"expression":"1+1"}']));
    const result = await runCli([
      'run',
      '-m',
      `scripted:${script}`,
      '-t',
      'calculator',
      '--max-steps',
      '1',
      '--json',
      'q',
    ]);
    const parsed = JSON.parse(result.stdout);
    expect(parsed.status).toBe('max_steps');
    expect(result.code).toBe(1);
    const done = await runCli(['run', '-m', 'demo', '--json', 'What is 2 + 2?']);
    expect(JSON.parse(done.stdout)).toMatchObject({
      status: 'done',
      output: '[demo simulation, no real LLM] 2 + 2 = 4',
    });
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
  });

  it('exits 2 for usage and configuration errors, with the error as JSON on stderr under --json', async () => {
    const language = await runCli(['run', '-m', 'demo', '--language', 'fr', 'x']);
    expect(language.code).toBe(2);
    expect(language.stderr).toMatch(/'fr' is invalid\. Allowed choices are en, zh/);
    const unknown = await runCli(['run', '--bogus', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option '--bogus'/);
    const number = await runCli(['run', '-m', 'demo', '--max-steps', 'ten', '--json', 'x']);
    expect(number.code).toBe(2);
    expect(number.stdout).toBe('');
    expect(JSON.parse(number.stderr).error).toMatchObject({ name: 'UsageError', exitCode: 2 });
    expect(JSON.parse(number.stderr).error.message).toMatch(/--max-steps must be a whole number/);
    const noModel = await runCli(['run', '--json', 'hello'], {
      env: { THINKFLOW_HOME: dir, OLLAMA_HOST: 'http://127.0.0.1:9', OPENAI_API_KEY: undefined },
    });
    expect(noModel.code).toBe(2);
    expect(JSON.parse(noModel.stderr).error).toMatchObject({ name: 'ConfigError', code: 'config' });
    const kit = await runCli(['run', '-m', 'demo', '-t', 'nope', 'x']);
    expect(kit.code).toBe(2);
    expect(kit.stderr).toMatch(/Unknown tool kit "nope"/);
    const empty = await runCli(['run', '-m', 'demo'], { input: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/No question given/);
  });

  it('exits 130 on Ctrl-C, with the run ended as aborted', async () => {
    server.reset();
    server.push({ kind: 'hang' });
    const result = await runCli(['run', '-m', compat(), '--json', 'wait forever'], {
      onSpawn: (child) => {
        // Ctrl-C once the model call is under way.
        const poll = setInterval(() => {
          if (server.requests.length === 0) return;
          clearInterval(poll);
          child.kill('SIGINT');
        }, 20);
        child.on('close', () => clearInterval(poll));
      },
    });
    expect(result.code).toBe(130);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'aborted' });
  });
});
