import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES_HELP } from '../../src/cli/exit-codes.js';
import { buildProgram } from '../../src/cli/program.js';
import { startOpenAIServer } from '../llm/providers/openai-server.js';
import type { WireServer } from '../llm/providers/wire-server.js';
import { runCli } from './run-cli.js';

// No saved config, no local model, no Ollama: only what a test sets chooses the model.
const isolated = (home: string) => ({
  THINKFLOW_HOME: home,
  OLLAMA_HOST: 'http://127.0.0.1:9',
  OPENAI_API_KEY: undefined,
});

describe('thinkflow options: config, env files, model options, colour (spawned CLI)', { timeout: 300_000 }, () => {
  let server: WireServer;
  let dir: string;
  beforeAll(async () => {
    server = await startOpenAIServer();
    dir = mkdtempSync(join(tmpdir(), 'thinkflow-cli-options-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const fresh = (name: string) => {
    const path = join(dir, name);
    mkdirSync(path, { recursive: true });
    return path;
  };

  it('`config set model` saves a default under THINKFLOW_HOME; THINKFLOW_MODEL and --model win over it', async () => {
    const home = fresh('home-config');
    const env = isolated(home);
    expect((await runCli(['config', 'set', 'model', 'demo'], { env })).code).toBe(0);
    expect((await runCli(['config', 'get', 'model'], { env })).stdout).toBe('demo\n');
    expect(JSON.parse((await runCli(['config', 'list', '--json'], { env })).stdout)).toEqual({ model: 'demo' });
    const saved = await runCli(['run', '-q', 'What is 6 * 7?'], { env });
    expect(saved.stdout).toBe('[demo simulation, no real LLM] 6 * 7 = 42\n');
    server.reset();
    server.push('from the server');
    const fromEnv = await runCli(['run', '-q', 'hi'], {
      env: { ...env, THINKFLOW_MODEL: `compat:${server.url}/v1#m` },
    });
    expect(fromEnv.stdout).toBe('from the server\n');
    const bad = await runCli(['config', 'set', 'model', 'gpt4'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unknown model spec "gpt4"/);
    expect((await runCli(['config', 'set', 'colour', 'red'], { env })).code).toBe(2);
    await runCli(['config', 'unset', 'model'], { env });
    const gone = await runCli(['config', 'get', 'model'], { env });
    expect(gone.code).toBe(1);
    expect(gone.stdout).toBe('');
  });

  it('loads --env-file, or ./.env unless --no-env-file', async () => {
    const home = fresh('home-env');
    const env = isolated(home);
    const file = join(dir, 'demo.env');
    writeFileSync(file, 'THINKFLOW_MODEL=demo\n');
    const explicit = await runCli(['run', '--env-file', file, '-q', 'What is 1 + 1?'], { env });
    expect(explicit.stdout).toBe('[demo simulation, no real LLM] 1 + 1 = 2\n');
    const project = fresh('project');
    writeFileSync(join(project, '.env'), '# the project model\nTHINKFLOW_MODEL="demo"\n');
    const dotenv = await runCli(['run', '-q', 'What is 2 + 1?'], { env, cwd: project });
    expect(dotenv.stdout).toBe('[demo simulation, no real LLM] 2 + 1 = 3\n');
    const off = await runCli(['run', '--no-env-file', '-q', 'What is 2 + 1?'], { env, cwd: project });
    expect(off.code).toBe(2);
    expect(off.stderr).toMatch(/No model is configured/);
    const missing = await runCli(['run', '--env-file', join(dir, 'nope.env'), 'x'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--env-file .*nope\.env: no such file/);
  });

  it('--temperature, --max-tokens and -O key=value reach the provider; bad values exit 2', async () => {
    server.reset();
    server.push('ok');
    const result = await runCli([
      'run',
      '-m',
      `compat:${server.url}/v1#m`,
      '-q',
      '--temperature',
      '0.2',
      '--max-tokens',
      '64',
      '-O',
      'top_p=0.9',
      '-O',
      'seed=7',
      '-O',
      'user=alice',
      'hi',
    ]);
    expect(result.code).toBe(0);
    expect(server.requests[0].body).toMatchObject({
      temperature: 0.2,
      max_tokens: 64,
      top_p: 0.9,
      seed: 7,
      user: 'alice',
    });
    const hot = await runCli(['run', '-m', 'demo', '--temperature', '3', 'x']);
    expect(hot.code).toBe(2);
    expect(hot.stderr).toMatch(/--temperature must be a number from 0 to 2 \(got "3"\)/);
    const pair = await runCli(['run', '-m', 'demo', '-O', 'top_p', 'x']);
    expect(pair.code).toBe(2);
    expect(pair.stderr).toMatch(/expected key=value/);
  });

  it('colours stderr only when asked: FORCE_COLOR or --color on, NO_COLOR or --no-color off', async () => {
    const ask = ['run', '-m', 'demo', 'What is 2 + 2?'];
    const ESC = '\x1b[';
    expect((await runCli(ask, { env: { NO_COLOR: undefined } })).stderr).not.toContain(ESC);
    const forced = await runCli(ask, { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(forced.stderr).toContain(ESC);
    expect(forced.stdout).not.toContain(ESC);
    expect((await runCli(['--color', ...ask], { env: { NO_COLOR: undefined } })).stderr).toContain(ESC);
    expect((await runCli(ask, { env: { NO_COLOR: '1', FORCE_COLOR: '1' } })).stderr).not.toContain(ESC);
    expect(
      (await runCli([...ask, '--no-color'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } })).stderr,
    ).not.toContain(ESC);
  });
});

/** Every command and subcommand, with its full name. */
function commands(command: Command, prefix = ''): [string, Command][] {
  return command.commands.flatMap((c) => {
    const name = `${prefix}${c.name()}`;
    return [[name, c] as [string, Command], ...commands(c, `${name} `)];
  });
}

function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (t) => (text += t), writeErr: (t) => (text += t) });
  command.outputHelp();
  return text;
}

// Every command loaded in full, as `thinkflow CMD --help` loads the one it shows.
const fullProgram = await buildProgram('all');

describe('help that teaches', () => {
  const all = commands(fullProgram).filter(([name]) => name !== 'help');

  it.each(all)('`thinkflow %s --help` ends with two or three real examples', (_name, command) => {
    const help = helpOf(command).trimEnd();
    const examples = help.slice(help.lastIndexOf('\nExamples:\n'));
    expect(help).toContain('\nExamples:\n');
    const lines = examples.split('\n').filter((l) => l.startsWith('  $ thinkflow') || l.startsWith('  $ '));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThanOrEqual(3);
    // The examples are the end of the help.
    expect(help.endsWith(lines.at(-1) as string)).toBe(true);
  });

  it('`thinkflow --help` and `run --help` show the exit codes, and --help exits 0', async () => {
    const result = await runCli(['run', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /Exit codes:\n {2}0 {4}done\n {2}1 .*\n {2}2 .*usage or configuration.*\n {2}130 {2}interrupted/,
    );
    expect(result.stdout.trimEnd()).toMatch(/\$ cat notes\.txt \| thinkflow run .*$/);
    expect(helpOf(fullProgram)).toContain(EXIT_CODES_HELP);
  }, 120_000);

  it('a reader that left (`thinkflow --help | head -1`) ends the command quietly, not with an EPIPE stack', async () => {
    // The pipe's reading end is closed before the CLI (loading through tsx) writes its help.
    const result = await runCli(['eval', 'rescore', '--help'], { onSpawn: (child) => child.stdout?.destroy() });
    expect(result.stderr).not.toMatch(/EPIPE|Unhandled|at /);
    expect(result.code).toBe(0);
  }, 120_000);

  it('`serve` and `worker` usage mistakes exit 2 too', async () => {
    const serve = await runCli(['serve', '--queue', 'redis://127.0.0.1:6379']);
    expect(serve.code).toBe(2);
    expect(serve.stderr).toMatch(/--queue needs --pg/);
    const worker = await runCli(['worker', '--queue', 'redis://x', '--pg', 'postgres://x', '--concurrency', '0']);
    expect(worker.code).toBe(2);
    expect(worker.stderr).toMatch(/--concurrency must be a positive whole number/);
  }, 120_000);

  it('docs/cli.md shows the same exit codes', () => {
    const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'cli.md'), 'utf8');
    expect(page).toContain(`<!-- exit-codes -->\n\`\`\`\n${EXIT_CODES_HELP}\n\`\`\``);
  });
});
