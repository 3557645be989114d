import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { lines } from '../server/server-fixtures.js';
import { eventually as pollUntil } from '../server/spawn-server.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** A child process the tests start, and kill -9. */
export interface Child {
  child: ChildProcess;
  output: () => string;
  /** SIGKILL (or `signal`), then wait for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** A free TCP port on the loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Spawns `command` and resolves once its output matches `ready` (or rejects with the output). */
export function spawnChild(
  command: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp | undefined,
  timeoutMs = 60_000,
): Promise<Child> {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void kill();
      reject(new Error(`${command} did not start within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.length > 200_000) out = out.slice(-100_000);
      if (ready?.test(out)) {
        clearTimeout(timer);
        resolve({ child, output: () => out, kill });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    if (!ready) {
      clearTimeout(timer);
      resolve({ child, output: () => out, kill });
    }
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}:\n${out}`));
    });
  });
}

/** Runs a TypeScript fixture with tsx until it prints "worker serving". */
export function spawnWorker(file: string, env: Record<string, string>): Promise<Child> {
  return spawnChild(process.execPath, ['--import', 'tsx', file], env, /worker serving/);
}

/** The lines of a file the workers append to (none when it does not exist yet). */
/** `eventually` from the server tests, waiting up to 30 s by default: an engine's worker starts slower. */
export function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  return pollUntil(check, timeoutMs);
}

/** The answer id of the run's latest pending question, once a worker has written it to `file`. */
export function pendingAnswer(file: string, runId: string): Promise<string> {
  return eventually(() => {
    const mine = lines(file)
      .map((l) => JSON.parse(l) as { runId: string; answerId: string })
      .filter((p) => p.runId === runId);
    return mine.at(-1)?.answerId;
  });
}

/** A restate-server on free loopback ports with its data in `baseDir`. */
export interface RestateServer {
  ingress: string;
  admin: string;
  stop(): Promise<void>;
}

/** Starts the restate-server binary from `@restatedev/restate-server` and waits for its admin API. */
export async function startRestateServer(baseDir: string): Promise<RestateServer> {
  const [node, ingress, admin, pg] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const binary = createRequire(import.meta.url).resolve(
    `@restatedev/restate-server-${process.platform}-${process.arch}/bin/restate-server`,
  );
  const env = {
    RESTATE_LISTEN_MODE: 'tcp',
    RESTATE_BIND_IP: '127.0.0.1',
    RESTATE_BIND_PORT: String(node),
    RESTATE_INGRESS__BIND_PORT: String(ingress),
    RESTATE_ADMIN__BIND_PORT: String(admin),
    RESTATE_ADMIN__QUERY_ENGINE__PGSQL_BIND_PORT: String(pg),
    RESTATE_BASE_DIR: baseDir,
    RESTATE_DEFAULT_NUM_PARTITIONS: '2',
    RESTATE_ROCKSDB_TOTAL_MEMORY_SIZE: '256MiB',
    // A worker killed -9 is retried within a second, not after minutes of backoff.
    RESTATE_DEFAULT_RETRY_POLICY__INITIAL_INTERVAL: '100ms',
    RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL: '500ms',
    RESTATE_DISABLE_TELEMETRY: 'true',
    RESTATE_LOG_FILTER: 'warn',
  };
  const server = await spawnChild(binary, ['--no-logo'], env, undefined);
  const adminUrl = `http://127.0.0.1:${admin}`;
  const ingressUrl = `http://127.0.0.1:${ingress}`;
  await eventually(async () => {
    const [a, i] = await Promise.all([
      fetch(`${adminUrl}/health`).catch(() => undefined),
      fetch(`${ingressUrl}/restate/health`).catch(() => undefined),
    ]);
    return a?.ok && i?.ok ? true : undefined;
  }, 30_000).catch(async (error) => {
    await server.kill();
    throw new Error(`restate-server did not start: ${error}\n${server.output()}`);
  });
  return { ingress: ingressUrl, admin: adminUrl, stop: () => server.kill('SIGTERM') };
}
