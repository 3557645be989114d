import { errorMessage, redactText, ThinkflowError, writeStderr } from '../../core/index.js';

/** A service the server needs and cannot reach right now. */
export type Dependency = 'postgres' | 'redis';

/**
 * PostgreSQL or Redis is unreachable (refused, reset, shutting down, or not answering in time). Not a
 * failure of any run: the API answers 503 with `Retry-After`, and workers wait and retry.
 */
export class DependencyUnavailableError extends ThinkflowError {
  readonly dependency: Dependency;
  readonly retryAfterSeconds: number;
  constructor(options: { dependency: Dependency; message: string; retryAfterSeconds?: number; cause?: unknown }) {
    super({ message: options.message, code: 'dependency_unavailable', cause: options.cause });
    this.name = 'DependencyUnavailableError';
    this.dependency = options.dependency;
    this.retryAfterSeconds = options.retryAfterSeconds ?? 5;
  }
}

// Node's socket errors: the server is not there, or went away mid-request.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// PostgreSQL's own: 08xxx connection exceptions, and a server shutting down, crashed or starting up.
const PG_UNAVAILABLE = /^(08...|57P01|57P02|57P03|53300)$/;
// What pg and ioredis say when a connection closes under them (no code to go by).
const CLOSED_MESSAGES = [
  'Connection terminated',
  'Connection is closed',
  'encountered a connection error',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
  "Stream isn't writeable",
  'Reached the max retries per request limit',
];

/**
 * True when an error (or its `cause`, or one of an `AggregateError`'s) says a database or Redis
 * connection failed, as opposed to a failure of the work itself.
 */
export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  if (error instanceof DependencyUnavailableError) return true;
  const { code, message, cause, errors, name } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
    name?: unknown;
  };
  if (name === 'DependencyUnavailableError' || name === 'MaxRetriesPerRequestError') return true;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || PG_UNAVAILABLE.test(code))) return true;
  if (typeof message === 'string' && CLOSED_MESSAGES.some((m) => message.includes(m))) return true;
  if (Array.isArray(errors) && errors.some((e) => isDependencyUnavailable(e, depth + 1))) return true;
  return isDependencyUnavailable(cause, depth + 1);
}

/** How retries of an unreachable dependency space out: capped exponential backoff with jitter. */
export interface Backoff {
  /** The first wait. Default 100 ms. */
  baseMs?: number;
  /** The longest wait. Default 5000 ms. */
  maxMs?: number;
}

/**
 * The wait before retry number `attempt` (0-based): between half and all of `base · 2^attempt`, capped
 * at `maxMs`. The jitter spreads many workers' retries out, so they do not all hit a recovering server at once.
 */
export function backoffDelay(attempt: number, backoff: Backoff = {}, random = Math.random): number {
  const ceiling = Math.min(backoff.maxMs ?? 5000, (backoff.baseMs ?? 100) * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export interface RetryOptions extends Backoff {
  /** Stops retrying: the last error is thrown. */
  signal?: AbortSignal;
  /** Called before each wait, with the error that made it. */
  onRetry?: (error: unknown, attempt: number) => void;
  /** Called once a call succeeds after at least one retry. */
  onRecovered?: (attempts: number) => void;
}

/**
 * Calls `work` until it does not fail for an unreachable dependency, however long the outage lasts,
 * waiting with backoff in between. Any other error is thrown at once: it is the work's own.
 */
export async function retryWhileUnavailable<T>(work: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      const value = await work();
      if (attempt > 0) options.onRecovered?.(attempt);
      return value;
    } catch (error) {
      if (!isDependencyUnavailable(error) || options.signal?.aborted) throw error;
      options.onRetry?.(error, attempt);
      await sleep(backoffDelay(attempt, options), options.signal);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Waits for `promise` at most `ms`, then rejects with a `DependencyUnavailableError` naming the
 * dependency. For calls that would otherwise wait as long as an outage lasts (ioredis queues
 * commands while it reconnects); a command still queued then runs when the server is back, which the
 * reconciler makes harmless.
 */
export function boundedWait<T>(promise: Promise<T>, options: { ms: number; dependency: Dependency }): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new DependencyUnavailableError({
            dependency: options.dependency,
            message: `${options.dependency === 'redis' ? 'Redis' : 'PostgreSQL'} did not answer within ${options.ms} ms.`,
          }),
        ),
      options.ms,
    );
  });
  promise.catch(() => {});
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** How a client of one dependency runs its calls through an outage. */
export interface OutageGate {
  /**
   * Runs one call. A lost connection is retried with backoff for as long as the outage lasts when
   * `wait` (default: as `waitThroughOutages()` set); otherwise it fails at once as a
   * `DependencyUnavailableError`. Either way listeners hear when the dependency goes and comes back.
   */
  run<T>(call: () => Promise<T>, wait?: boolean): Promise<T>;
  /** From now on, calls wait through outages by default. */
  waitThroughOutages(): void;
  onOutage(listener: (down: boolean) => void): () => void;
  /** Ends retries in progress (their last error is thrown). */
  close(): void;
}

export function createOutageGate(options: { dependency: Dependency; backoff?: Backoff }): OutageGate {
  let waitByDefault = false;
  let down = false;
  const listeners = new Set<(down: boolean) => void>();
  const closing = new AbortController();
  const name = options.dependency === 'redis' ? 'Redis' : 'PostgreSQL';
  const setDown = (value: boolean) => {
    if (down === value) return;
    down = value;
    for (const listener of listeners) listener(value);
  };
  return {
    async run(call, wait = waitByDefault) {
      try {
        const value = wait
          ? await retryWhileUnavailable(call, {
              maxMs: 2000,
              ...options.backoff,
              signal: closing.signal,
              onRetry: () => setDown(true),
            })
          : await call();
        setDown(false);
        return value;
      } catch (error) {
        if (!isDependencyUnavailable(error)) throw error;
        setDown(true);
        if (error instanceof DependencyUnavailableError) throw error;
        throw new DependencyUnavailableError({
          dependency: options.dependency,
          message: `${name} is unreachable (${errorMessage(error)}).`,
          cause: error,
        });
      }
    },
    waitThroughOutages() {
      waitByDefault = true;
    },
    onOutage(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => closing.abort(),
  };
}

/** Logs a line the first time it is seen in an interval, and how many more times it came at the interval's end. */
export interface LogThrottle {
  (line: string): void;
  /** Writes the pending counts now and stops the timer. */
  close(): void;
}

/**
 * One log line per distinct message per interval, with a count, instead of one per occurrence: an
 * outage makes every request and every reconnect fail with the same error.
 */
export function createLogThrottle(log: (line: string) => void, intervalMs = 10_000): LogThrottle {
  const repeats = new Map<string, number>();
  const every = intervalMs >= 1000 ? `${Math.round(intervalMs / 1000)} s` : `${intervalMs} ms`;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    for (const [line, count] of repeats) {
      if (count > 0) log(`${line} (${count} more in the last ${every})`);
    }
    // Lines seen again in the next interval are counted; a line gone quiet is logged afresh next time.
    const again = [...repeats].filter(([, count]) => count > 0);
    repeats.clear();
    for (const [line] of again) repeats.set(line, 0);
    if (again.length > 0) schedule();
  };
  const schedule = () => {
    timer = setTimeout(flush, intervalMs);
    timer.unref();
  };
  const throttle = (line: string) => {
    const count = repeats.get(line);
    if (count === undefined) {
      log(line);
      repeats.set(line, 0);
    } else repeats.set(line, count + 1);
    if (!timer) schedule();
  };
  throttle.close = () => {
    clearTimeout(timer);
    flush();
    clearTimeout(timer);
    timer = undefined;
  };
  return throttle;
}

/**
 * Where background errors go when the caller gave no `onError`: stderr, redacted, each distinct
 * message once per interval with a count (nothing is dropped silently, and an outage is a few lines).
 */
export function stderrErrors(prefix: string): (error: unknown) => void {
  const log = createLogThrottle((line) => writeStderr(`${redactText(line)}\n`));
  return (error) => log(`${prefix}: ${errorMessage(error)}`);
}
