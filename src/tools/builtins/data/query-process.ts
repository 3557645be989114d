import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FromQueryProcess, QueryMessage, ToQueryProcess } from './duckdb-protocol.js';
import type { QueryLimits } from './query-limits.js';

/** Rows read by one query, at most `maxRows` of them. */
export interface QueryRows {
  columns: string[];
  rows: unknown[][];
  /** More rows existed than were read. */
  more: boolean;
}

/** The parent's handle on a query process: started on the first query, started again after it ends. */
export interface QueryProcess {
  query(query: Omit<QueryMessage, 'type' | 'id'>, signal?: AbortSignal): Promise<QueryRows>;
  /** Ends the process (a later query starts a new one). */
  close(): void;
}

interface Pending {
  resolve(rows: QueryRows): void;
  reject(error: Error): void;
}

interface Running {
  child: ChildProcess;
  ready: Promise<void>;
  pending: Map<number, Pending>;
  /** Why the process said it is stopping, when it did. */
  reason?: string;
  stderr: string;
}

/** How long a query process may take to start (load DuckDB) before the query fails. */
const START_TIMEOUT_MS = 60_000;

/**
 * Runs the queries of one data session in a child process (see `query-process-main.ts`). The child enforces
 * the memory and time limits on itself; this side adds a backstop (SIGKILL a little after the time limit),
 * turns the child's end into a clear failure of every query it was running, and never keeps the parent
 * alive while no query runs.
 */
export function queryProcess(realRoot: string, limits: QueryLimits): QueryProcess {
  let current: Running | undefined;
  let nextId = 1;

  const start = (): Running => {
    const child = spawnChild();
    const running: Running = { child, pending: new Map(), stderr: '', ready: Promise.resolve() };
    child.stderr?.on('data', (chunk: Buffer) => {
      running.stderr = (running.stderr + chunk.toString()).slice(-2000);
    });
    running.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`The data engine did not start within ${START_TIMEOUT_MS / 1000} s.`));
      }, START_TIMEOUT_MS);
      child.on('message', (message: FromQueryProcess) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          resolve();
        } else if (message.type === 'stopping') running.reason = message.message;
        else settle(running, message);
      });
      const ended = (why: string) => {
        clearTimeout(timer);
        if (current === running) current = undefined;
        reject(new Error(why));
        for (const pending of running.pending.values()) pending.reject(new Error(why));
        running.pending.clear();
      };
      child.once('exit', (code, signal) => {
        ended(
          running.reason ??
            `The data engine stopped unexpectedly (${signal ?? `exit ${code}`}). ${running.stderr}`.trim(),
        );
      });
      // A failed spawn, or a message that could not be sent: without this listener it would end the agent's process.
      child.on('error', (error) => {
        running.reason ??= `The data engine failed: ${error.message}`;
        if (child.pid === undefined) ended(running.reason);
        else child.kill('SIGKILL');
      });
    });
    running.ready.catch(() => {});
    child.send({ type: 'start', realRoot, limits } satisfies ToQueryProcess);
    return running;
  };

  return {
    async query(query, signal) {
      if (signal?.aborted) throw stoppedError();
      current ??= start();
      const running = current;
      running.child.channel?.ref();
      try {
        return await send(running, nextId++, query, signal);
      } finally {
        if (running.pending.size === 0) running.child.channel?.unref();
      }
    },
    close() {
      current?.child.kill('SIGKILL');
      current = undefined;
    },
  };

  /**
   * Sends the query once the process is ready, and settles with its answer, or with a failure when the call
   * is aborted (even while the process is still starting), the process ends, or the backstop fires first.
   */
  function send(running: Running, id: number, query: Omit<QueryMessage, 'type' | 'id'>, signal?: AbortSignal) {
    return new Promise<QueryRows>((resolve, reject) => {
      let backstop: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(backstop);
        signal?.removeEventListener('abort', onAbort);
        running.pending.delete(id);
      };
      const onAbort = () => {
        done();
        if (running.child.connected) running.child.send({ type: 'cancel', id } satisfies ToQueryProcess);
        reject(stoppedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      running.pending.set(id, {
        resolve: (rows) => {
          done();
          resolve(rows);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      running.ready.then(
        () => {
          if (!running.pending.has(id)) return;
          backstop = setTimeout(() => {
            running.pending
              .get(id)
              ?.reject(new Error(`The query ran longer than the ${limits.timeMs / 1000} s limit and was stopped.`));
            running.child.kill('SIGKILL');
          }, limits.timeMs + 3000);
          running.child.send({ type: 'query', id, ...query } satisfies ToQueryProcess);
        },
        (error: Error) => running.pending.get(id)?.reject(error),
      );
    });
  }
}

function settle(running: Running, message: Extract<FromQueryProcess, { id: number }>): void {
  const pending = running.pending.get(message.id);
  if (!pending) return;
  running.pending.delete(message.id);
  if (message.type === 'rows') pending.resolve({ columns: message.columns, rows: message.rows, more: message.more });
  else pending.reject(new Error(message.message));
}

function stoppedError(): Error {
  return new Error('INTERRUPT: the query was stopped (aborted or timed out).');
}

/**
 * Forks `query-process-main` next to this file: the compiled `.js` from the package, or the `.ts` source
 * (then through tsx, a dependency) when thinkflow itself runs from source, as in its tests.
 */
function spawnChild(): ChildProcess {
  const here = fileURLToPath(import.meta.url);
  const extension = path.extname(here);
  const entry = path.join(path.dirname(here), `query-process-main${extension}`);
  const execArgv =
    extension === '.ts' ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
  const child = fork(entry, [], { execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  child.unref();
  (child.stderr as { unref?: () => void } | null)?.unref?.();
  return child;
}
