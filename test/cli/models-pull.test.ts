import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { pullModel, registerModelsCommand } from '../../src/cli/models-command.js';
import { ConfigError } from '../../src/core/index.js';
import { findLocalModel } from '../../src/llm/index.js';

const payload = Buffer.alloc(300_000, 7);

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('thinkflow models pull', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  function tempDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'thinkflow-models-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }
  async function fileServer(): Promise<string> {
    const server = createServer((req, res) => {
      if (req.url !== '/tiny-model.gguf') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-length': String(payload.length), 'content-type': 'application/octet-stream' });
      // Several chunks so the bar moves.
      for (let i = 0; i < payload.length; i += 50_000) res.write(payload.subarray(i, i + 50_000));
      res.end();
    });
    const port = await listen(server);
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    return `http://127.0.0.1:${port}`;
  }

  it('downloads into the models folder with a progress bar, and findLocalModel finds it', async () => {
    const base = await fileServer();
    const dir = tempDir();
    let err = '';
    const path = await pullModel(
      'custom',
      { url: `${base}/tiny-model.gguf`, dir },
      { stderr: (t) => (err += t), tty: true },
    );
    expect(path).toBe(join(dir, 'tiny-model.gguf'));
    expect(readFileSync(path).equals(payload)).toBe(true);
    expect(err).toContain('\r\x1b[Kdownloading tiny-model.gguf [########################] 0.3 MB/0.3 MB · 100%');
    expect(err).toMatch(/\r\x1b\[Kdownloading tiny-model\.gguf \[#*-+\] 0\.\d MB\/0\.3 MB · \d\d?%/);
    expect(err).toContain('\r\x1b[Ksaved');
    expect(err).toContain(`run it with: thinkflow run --model llamacpp:${path}`);
    expect(readdirSync(dir)).toEqual(['tiny-model.gguf']);
    expect(findLocalModel(dir)).toBe(path);
  });

  it('draws no progress when stderr is not a terminal', async () => {
    const base = await fileServer();
    let err = '';
    const path = await pullModel(
      'custom',
      { url: `${base}/tiny-model.gguf`, dir: tempDir() },
      { stderr: (t) => (err += t) },
    );
    expect(err).toBe(`saved ${path} (0.3 MB)\nrun it with: thinkflow run --model llamacpp:${path} "your task"\n`);
  });

  it('says plainly that the hub is unreachable and how to place a GGUF file by hand', async () => {
    const probe = createServer();
    const port = await listen(probe);
    await new Promise((resolve) => probe.close(resolve));
    const dir = tempDir();
    const error = await pullModel(
      'qwen2.5-0.5b-instruct',
      { url: `http://127.0.0.1:${port}/m.gguf`, dir },
      { stderr: () => undefined },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain(`the model hub http://127.0.0.1:${port} is unreachable (`);
    expect(message).toMatch(/ECONNREFUSED/);
    expect(message).toContain(
      `copy a GGUF file into ${dir}/ yourself (for example as ${join(dir, 'qwen2.5-0.5b-instruct-q4_k_m.gguf')})`,
    );
    expect(message).toContain('--model llamacpp:PATH.gguf');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('treats an HTTP error from the hub the same way, leaving no partial file', async () => {
    const base = await fileServer();
    const dir = tempDir();
    const error = await pullModel('x', { url: `${base}/missing.gguf`, dir }, { stderr: () => undefined }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/is unreachable \(it answered HTTP 404\)/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('is wired as `models pull --url --dir` and `models list`', async () => {
    const base = await fileServer();
    const dir = tempDir();
    let out = '';
    let err = '';
    const program = new Command('thinkflow').exitOverride();
    registerModelsCommand(program, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
    await program.parseAsync(['models', 'pull', 'custom', '--url', `${base}/tiny-model.gguf`, '--dir', dir], {
      from: 'user',
    });
    expect(existsSync(join(dir, 'tiny-model.gguf'))).toBe(true);
    expect(err).toContain('saved');
    writeFileSync(join(dir, 'notes.txt'), 'not a model');
    await program.parseAsync(['models', 'list', '--dir', dir], { from: 'user' });
    expect(out).toContain(`local: ${join(dir, 'tiny-model.gguf')}`);
    expect(out).toContain('qwen2.5-0.5b-instruct');
  });

  it('findLocalModel returns undefined for a missing or empty folder', () => {
    expect(findLocalModel(join(tmpdir(), 'thinkflow-no-such-dir-xyz'))).toBeUndefined();
    expect(findLocalModel(tempDir())).toBeUndefined();
  });
});
