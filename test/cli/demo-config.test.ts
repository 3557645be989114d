import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../server/spawn-server.js';
import { runCli } from './run-cli.js';

/** A folder with `thinkflow.config.yaml` holding `yaml`, removed by `cleanup`. */
function yamlConfig(yaml: string) {
  const dir = mkdtempSync(join(tmpdir(), 'tf-demo-config-'));
  const file = join(dir, 'thinkflow.config.yaml');
  writeFileSync(file, yaml);
  return { dir, file, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

async function askServed(config: string, input: string): Promise<{ status: string; output: string; tools: string[] }> {
  const { dir, file, cleanup } = yamlConfig(config);
  const server = await spawnCli(['serve', '--config', file, '--port', '0', '--data-dir', dir], {});
  try {
    const response = await fetch(`${server.url}/v1/agents/demo/runs?wait=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input }),
    });
    const { result: run } = (await response.json()) as {
      result: { status: string; output: string; steps: { toolCalls: { name: string }[] }[] };
    };
    return { status: run.status, output: run.output, tools: run.steps.flatMap((s) => s.toolCalls.map((c) => c.name)) };
  } finally {
    await server.kill();
    cleanup();
  }
}

describe('the demo model under `thinkflow serve` with a YAML config', { timeout: 200_000 }, () => {
  it('`model: demo` alone gets the demo tools, as `run --model demo` does, and answers over HTTP', async () => {
    const run = await askServed('agents:\n  demo:\n    model: demo\n', 'What is (15 + 7) * 3?');
    expect(run.tools).toEqual(['calculator']);
    expect(run.output).toContain('66');
    expect(run.output).not.toContain('Unknown tool');
  });

  it('`tools: [demo]` is the same kit as `run --tools demo`', async () => {
    const run = await askServed('agents:\n  demo:\n    model: demo\n    tools: [demo]\n', '北京天气怎么样？');
    expect(run.status).toBe('done');
    expect(run.tools).toEqual(['weather']);
  });

  it('an unknown kit in a config lists the same kits as `run --tools` does', async () => {
    const { dir, file, cleanup } = yamlConfig('agents:\n  a:\n    model: demo\n    tools: [nope]\n');
    try {
      const served = await runCli(['serve', '--config', file, '--port', '0', '--data-dir', dir]);
      const ran = await runCli(['run', '--model', 'demo', '--tools', 'nope', 'hi']);
      const kits = (text: string) => /Available: ([^.]+)\./.exec(text)?.[1];
      expect(served.code).not.toBe(0);
      expect(served.stderr).toContain('agent "a"');
      expect(kits(served.stderr)).toContain('demo');
      expect(kits(served.stderr)).toBe(kits(ran.stderr));
    } finally {
      cleanup();
    }
  });

  it('`thinkflow serve` with no config points at `thinkflow studio`, and finds thinkflow.config.yaml itself', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'tf-no-config-'));
    const { dir, cleanup } = yamlConfig('agents:\n  demo:\n    model: demo\n');
    try {
      const result = await runCli(['serve', '--port', '0', '--data-dir', empty], { cwd: empty });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('thinkflow studio');
      const server = await spawnCliIn(dir);
      await server.kill();
      expect(server.stderr()).toContain('serving demo on');
    } finally {
      rmSync(empty, { recursive: true, force: true });
      cleanup();
    }
  });

  it('a config named otherwise (thinkflow.yaml) is named in the error, with the rename and the flag that read it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tf-near-config-'));
    writeFileSync(join(dir, 'thinkflow.yaml'), 'agents:\n  demo:\n    model: demo\n');
    try {
      const result = await runCli(['serve', '--port', '0', '--data-dir', dir], { cwd: dir });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('rename it thinkflow.config.yaml, or pass --config thinkflow.yaml');
      expect(result.stderr).toContain('thinkflow studio');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** `thinkflow serve` with no `--config`, started in `cwd`. */
function spawnCliIn(cwd: string) {
  return spawnCli(['serve', '--port', '0', '--data-dir', cwd], {}, 150_000, cwd);
}
