import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
/** tsx's loader by path, so the CLI also starts in a folder outside the repository. */
const TSX_LOADER = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** A `thinkflow serve|worker` child process started with `node --import tsx`. */
export interface ServerProcess {
  child: ChildProcess;
  /** The base URL (serve only), read from the "serving … on URL" line. */
  url: string;
  stderr: () => string;
  /** SIGKILL, then wait for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Spawns the CLI and resolves once it says it is serving (or rejects with its stderr within `timeoutMs`). */
export function spawnCli(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 150_000,
  cwd = ROOT,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void kill();
      reject(new Error(`CLI did not start within ${timeoutMs} ms:\n${err}`));
    }, timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const match = /(?:serving .* on (http:\/\/\S+)|worker serving)/.exec(err);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] ?? '', stderr: () => err, kill });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`CLI exited with ${code}:\n${err}`));
    });
  });
}

/** Resolves when `check` returns a value, polling every 50 ms; rejects after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A JSON call to a spawned server as `tok-alice` (the fixtures' first principal): GET without a body, POST with one. */
export async function callAsAlice(
  server: ServerProcess,
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: the tests read answer fields freely.
): Promise<{ status: number; json: any }> {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: 'Bearer tok-alice', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

/**
 * `thinkflow serve` children of one test file, all with `config`: `start` spawns one on a free port with its
 * data dir and environment; after each test every child is killed and every other cleanup pushed runs, last first.
 */
export function servedConfig(config: string): {
  start: (dataDir: string, env: Record<string, string>) => Promise<ServerProcess>;
  cleanups: (() => Promise<void> | void)[];
} {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const start = async (dataDir: string, env: Record<string, string>) => {
    const server = await spawnCli(['serve', '--port', '0', '--config', config, '--data-dir', dataDir], env);
    cleanups.push(() => server.kill());
    return server;
  };
  return { start, cleanups };
}
