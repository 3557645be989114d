/**
 * The edge between code mode and whatever runs the model's program. The executor, approvals and
 * replay only see this interface, so a different sandbox (a worker, a remote isolate) can stand in
 * for QuickJS without any of them changing.
 */

/** The largest `stackBytes` allowed (see `CodeBudgets.stackBytes`). */
export const MAX_STACK_BYTES = 256 * 1024;

/** What one program may use up. Each has a default (`DEFAULT_BUDGETS`) and is an option of `codeMode`. */
export interface CodeBudgets {
  /** Wall time of the program, time spent waiting for a person excluded. Default 30 000. */
  timeoutMs: number;
  /** Memory of the sandbox's heap. Default 64 MiB. */
  memoryBytes: number;
  /**
   * Stack of the sandbox: deep recursion stops here (about 680 plain calls at the default). Default
   * 128 KiB, at most 256 KiB: QuickJS's frames also use the host's own stack, which must not run out first.
   */
  stackBytes: number;
  /** Tool calls per program. Default 256. */
  maxToolCalls: number;
  /** Tool calls in flight at once; more wait for a free slot. Default 16. */
  maxConcurrency: number;
  /** Bytes of returned value and log text together. Default 64 kB. */
  maxOutputBytes: number;
}

/** The budgets a program gets unless `codeMode`'s options say otherwise. */
export const DEFAULT_BUDGETS: CodeBudgets = {
  timeoutMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 128 * 1024,
  maxToolCalls: 256,
  maxConcurrency: 16,
  maxOutputBytes: 64 * 1024,
};

/**
 * What the program can reach of the host: nothing but these. Values cross as JSON text both ways.
 * A rejection of `call` or `sleep` becomes a rejected promise inside the program, with the message.
 */
export interface SandboxHost {
  /** The names of `tools.<name>(input)` inside the program. */
  readonly tools: readonly string[];
  /** A tool call: the input as JSON text; resolves with the output as JSON text (undefined for none). */
  call(name: string, input: string): Promise<string | undefined>;
  /** `setTimeout`'s wait, bounded by the host. */
  sleep(ms: number): Promise<void>;
  /** One `console.*` line. */
  log(line: string): void;
  /** `final_answer(value)`, with the value as JSON text; absent when the program has no `final_answer`. */
  final?(value: string | undefined): void;
  /** True once the time budget is spent; checked while the program computes. */
  expired(): boolean;
  /** Seeds `Math.random`, so a replay takes the same path. */
  readonly seed: number;
  /** What `Date.now()` starts at (it advances one millisecond per read), so a replay sees the same times. */
  readonly clock: number;
}

/** How a program ended. `error` messages are written for the model. */
export type SandboxOutcome =
  | { type: 'returned'; json: string | undefined }
  | { type: 'error'; kind: SandboxErrorKind; message: string };

/** Why a program did not return: what it threw, or which limit stopped it. */
export type SandboxErrorKind = 'syntax' | 'thrown' | 'timeout' | 'memory' | 'stack' | 'unsettled' | 'aborted';

/** A fresh, isolated context for one program. */
export interface SandboxSession {
  /** Runs the body of an async function; settles when it returns, throws or is stopped. Never rejects. */
  run(code: string, signal?: AbortSignal): Promise<SandboxOutcome>;
  /** Frees the context; the session cannot be used again. */
  dispose(): void;
}

/** Starts sessions. `start` is where a sandbox loads what it needs (QuickJS loads its WebAssembly once). */
export interface Sandbox {
  start(host: SandboxHost, budgets: Pick<CodeBudgets, 'memoryBytes' | 'stackBytes'>): Promise<SandboxSession>;
}
