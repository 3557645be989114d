import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// Private Redis and PostgreSQL instances for fault tests: a test may stop, flush or kill them, and a
// failing test never leaves the machine's shared services down.

const run = promisify(execFile);
const PG_BIN = process.env.THINKFLOW_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not come up within ${timeoutMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A `redis-server` of the test's own, keeping nothing on disk (as many managed setups do). */
export interface PrivateRedis {
  url: string;
  port: number;
  /** `SHUTDOWN NOSAVE`: every key is gone, and clients see the connection drop. */
  shutdown(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Stops it for good. */
  close(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const cli = (...args: string[]) => run('redis-cli', ['-p', String(port), ...args]);
  const start = async () => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      { stdio: 'ignore' },
    );
    child = started;
    await waitUntil(async () => (await cli('ping')).stdout.trim() === 'PONG', `redis-server on ${port}`);
  };
  const stop = async () => {
    const current = child;
    child = undefined;
    if (!current || current.exitCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    await cli('shutdown', 'nosave').catch(() => current.kill('SIGKILL'));
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, shutdown: stop, start, close: stop };
}

/** A PostgreSQL cluster of the test's own (`initdb` in a temp dir, `pg_ctl` on a free port). */
export interface PrivatePostgres {
  url: string;
  port: number;
  /** `pg_ctl stop -m fast`: open connections are terminated. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and deletes its files. */
  close(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tf-pg-'));
  const data = join(dir, 'data');
  // PostgreSQL refuses to run as root: as root, its binaries run as the `postgres` user, who owns the dir.
  const asRoot = process.getuid?.() === 0;
  if (asRoot)
    chownSync(
      dir,
      Number((await run('id', ['-u', 'postgres'])).stdout),
      Number((await run('id', ['-g', 'postgres'])).stdout),
    );
  const pg = (binary: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(PG_BIN, binary), ...args]) : run(join(PG_BIN, binary), args);
  await pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`;
  const start = async () => {
    await pg('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  };
  const stop = async () => {
    await pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => {});
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
