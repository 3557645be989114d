import type { CodeBudgets, Sandbox, SandboxErrorKind, SandboxHost } from './sandbox.js';

/** Why a program did not return a value: a sandbox limit, or one of the host's budgets. */
export type ProgramErrorKind = SandboxErrorKind | 'calls' | 'output' | 'diverged';

/** How one program went: what it returned (as JSON) or why it did not, and what it logged. */
export interface ProgramResult {
  ok: boolean;
  /** The returned value as JSON text (absent when it returned nothing). */
  json?: string;
  /** Set when the program called `final_answer(value)`: the value as JSON text. */
  final?: { json?: string };
  logs: string[];
  error?: string;
  errorKind?: ProgramErrorKind;
  /** Tool calls the program made. */
  calls: number;
  /** Milliseconds from start to the program's first line (the sandbox's start-up). */
  startupMs: number;
}

/** The time budget's clock: it stops while a call waits for a person. */
export interface BudgetClock {
  pause(): void;
  resume(): void;
}

/** What running one program needs. */
export interface ProgramOptions {
  code: string;
  sandbox: Sandbox;
  budgets: CodeBudgets;
  /** The names of `tools.<name>`. */
  tools: readonly string[];
  /** One tool call; resolves with the output, rejects with an Error whose message the program sees. */
  call(name: string, input: unknown, clock: BudgetClock, signal: AbortSignal): Promise<unknown>;
  seed: number;
  clock: number;
  /** The program may end the run with `final_answer(value)`. */
  finalAnswer?: boolean;
  signal?: AbortSignal;
}

/** Thrown by `call` to stop the whole program (a replay that diverged): its message is the program's error. */
export class ProgramStop extends Error {
  readonly kind: ProgramErrorKind;
  constructor(kind: ProgramErrorKind, message: string) {
    super(message);
    this.name = 'ProgramStop';
    this.kind = kind;
  }
}

/**
 * Runs one program in a fresh sandbox session, within its budgets: the wall time (paused while a
 * call waits for a person), the tool calls and how many run at once, and the bytes of output.
 * Never rejects; each way a program can fail is an `error` the model can act on.
 */
export async function runProgram(options: ProgramOptions): Promise<ProgramResult> {
  const { budgets, signal } = options;
  const began = performance.now();
  const stopper = new AbortController();
  const logs: string[] = [];
  let logBytes = 0;
  let calls = 0;
  let stop: ProgramStop | undefined;
  let final: ProgramResult['final'];
  const clock = budgetClock(budgets.timeoutMs, () => stopper.abort());
  const slots = semaphore(budgets.maxConcurrency);
  const halt = (reason: ProgramStop) => {
    stop ??= reason;
    stopper.abort();
  };
  const onAbort = () => stopper.abort();
  signal?.addEventListener('abort', onAbort, { once: true });

  const host: SandboxHost = {
    tools: options.tools,
    seed: options.seed,
    clock: options.clock,
    expired: clock.expired,
    log(line) {
      if (logBytes > budgets.maxOutputBytes) return;
      logBytes += byteLength(line) + 1;
      logs.push(logBytes > budgets.maxOutputBytes ? '… (more log lines were cut: maxOutputBytes)' : line);
    },
    sleep: (ms) => sleep(Math.max(0, Math.min(ms, budgets.timeoutMs)), stopper.signal),
    final: options.finalAnswer
      ? (json) => {
          final = { json };
        }
      : undefined,
    async call(name, input) {
      calls += 1;
      if (calls > budgets.maxToolCalls) {
        const message = `The program made more than ${budgets.maxToolCalls} tool calls (maxToolCalls). Make fewer calls: ask for several items at once where a tool allows it, or split the work over several programs.`;
        halt(new ProgramStop('calls', message));
        throw new Error(message);
      }
      const release = await slots.acquire();
      try {
        const output = await options.call(name, JSON.parse(input), clock, stopper.signal);
        return output === undefined ? undefined : JSON.stringify(output);
      } catch (error) {
        if (error instanceof ProgramStop) halt(error);
        throw error;
      } finally {
        release();
      }
    },
  };

  let startupMs = 0;
  try {
    const session = await options.sandbox.start(host, budgets);
    startupMs = performance.now() - began;
    try {
      const outcome = await session.run(options.code, stopper.signal);
      if (stop) return failed(stop.kind, stop.message);
      if (outcome.type === 'error') return failed(outcome.kind, explain(outcome.kind, outcome.message, budgets));
      const json = final ? final.json : outcome.json;
      const size = byteLength(json ?? '') + logBytes;
      if (size > budgets.maxOutputBytes) {
        const message = `The program returned ${size} bytes of output with its log, more than the ${budgets.maxOutputBytes} allowed (maxOutputBytes). Return less: a summary, a count or the few items that matter. It began: ${(json ?? '').slice(0, 200)}`;
        return failed('output', message);
      }
      return { ok: true, json, final, logs, calls, startupMs };
    } finally {
      session.dispose();
    }
  } finally {
    clock.dispose();
    signal?.removeEventListener('abort', onAbort);
  }

  function failed(kind: ProgramErrorKind, error: string): ProgramResult {
    return { ok: false, logs, error, errorKind: kind, calls, startupMs };
  }
}

/** The message the model sees for a program stopped by a limit, naming the limit and what to do. */
function explain(kind: SandboxErrorKind, message: string, budgets: CodeBudgets): string {
  switch (kind) {
    case 'timeout':
      return `The program ran longer than ${budgets.timeoutMs} ms (timeoutMs) and was stopped. Look for a loop that never ends, or do less per program.`;
    case 'memory':
      return `The program used more than ${budgets.memoryBytes} bytes of memory (memoryBytes) and was stopped: ${message}`;
    case 'stack':
      return `The program recursed too deeply (stack limit ${budgets.stackBytes} bytes) and was stopped: ${message}. Use a loop instead of deep recursion.`;
    case 'aborted':
      return 'The program was stopped because the run was aborted.';
    case 'syntax':
      return `${message}. Write plain JavaScript: the body of an async function, using await tools.<name>(input) and return.`;
    default:
      return message;
  }
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** A wall-time budget that stops counting while paused, and calls `onExpire` when it runs out. */
function budgetClock(timeoutMs: number, onExpire: () => void) {
  let used = 0;
  let since = performance.now();
  let paused = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    timer = setTimeout(onExpire, Math.max(0, timeoutMs - used) + 1);
  };
  arm();
  return {
    expired: () => paused === 0 && used + (performance.now() - since) > timeoutMs,
    pause() {
      if (paused++ > 0) return;
      used += performance.now() - since;
      clearTimeout(timer);
    },
    resume() {
      if (paused === 0 || --paused > 0) return;
      since = performance.now();
      arm();
    },
    dispose: () => clearTimeout(timer),
  };
}

/** At most `limit` holders at once; the others wait in order. */
function semaphore(limit: number) {
  let free = limit;
  const queue: (() => void)[] = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else free += 1;
  };
  return {
    acquire(): Promise<() => void> {
      if (free > 0) {
        free -= 1;
        return Promise.resolve(release);
      }
      return new Promise((resolve) => queue.push(() => resolve(release)));
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('The program was stopped.'));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new Error('The program was stopped.'));
      },
      { once: true },
    );
  });
}
