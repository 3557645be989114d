import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { type QuickJsModuleSource, quickJsLoader } from './load-quickjs.js';
import {
  type CodeBudgets,
  MAX_STACK_BYTES,
  type Sandbox,
  type SandboxErrorKind,
  type SandboxHost,
  type SandboxOutcome,
  type SandboxSession,
} from './sandbox.js';
import { SANDBOX_PRELUDE } from './sandbox-prelude.js';

/** Options of `quickJsSandbox`. */
export interface QuickJsSandboxOptions {
  /**
   * The QuickJS WebAssembly module programs run in, or a function that loads it (preferred: after a
   * program breaks the module, the next one gets a fresh one). Default: `quickjs-emscripten`'s release
   * build, loaded on first use, which works on Node, Bun and Deno. A browser or a Cloudflare Worker
   * passes its own, made with `newVariant(RELEASE_SYNC, { wasmLocation })` or `{ wasmModule }`
   * (docs/code-mode.md#runtimes).
   */
  module?: QuickJsModuleSource;
}

/**
 * The QuickJS sandbox: the model's program runs in QuickJS compiled to WebAssembly (the optional peer
 * `quickjs-emscripten`), in a fresh runtime per program with its own memory and stack limits and an
 * interrupt handler that stops it when its time is spent. Only the prelude's functions reach the host.
 *
 * @example
 * // In a Cloudflare Worker: the .wasm imported as a module (workerd compiles no WebAssembly from bytes).
 * import wasmModule from '@jitl/quickjs-wasmfile-release-sync/wasm';
 * import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
 * const sandbox = quickJsSandbox({ module: () => newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmModule })) });
 * const tool = codeMode([weather], { sandbox });
 */
export function quickJsSandbox(options: QuickJsSandboxOptions = {}): Sandbox {
  const loader = quickJsLoader(options.module);
  return {
    async start(host, budgets) {
      return startSession(await loader.get(), host, budgets, () => loader.drop());
    },
  };
}

const WRAP_HEAD = '(async () => {\n';

function startSession(
  quickjs: QuickJSWASMModule,
  host: SandboxHost,
  budgets: Pick<CodeBudgets, 'memoryBytes' | 'stackBytes'>,
  /** Called when a trap left the module in an unknown state: the next program must not use it. */
  onBroken: () => void,
): SandboxSession {
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(budgets.memoryBytes);
  runtime.setMaxStackSize(Math.min(budgets.stackBytes, MAX_STACK_BYTES));
  let aborted = false;
  const vm = runtime.newContext();
  const owned: QuickJSHandle[] = [];
  let finish: (outcome: SandboxOutcome) => void = () => {};
  let finished = false;
  let inflight = 0;

  /** Answers request `id` inside the program, then lets the program run on. */
  const settle = (id: number, ok: boolean, text: string | undefined) => {
    if (finished) return;
    const args = [vm.newNumber(id), ok ? vm.true : vm.false, text === undefined ? vm.undefined : vm.newString(text)];
    try {
      const result = vm.callFunction(owned[1], vm.undefined, ...args);
      if (result.error) result.error.dispose();
      else result.value.dispose();
    } catch (error) {
      trapped(error);
      return;
    } finally {
      args[0].dispose();
      args[2].dispose();
    }
    pump();
  };

  /**
   * A throw out of QuickJS itself (the host's stack ran out inside WebAssembly) leaves the module in an
   * unknown state: the program ends, and the next one gets a fresh module.
   */
  let broken = false;
  const trapped = (error: unknown) => {
    broken = true;
    onBroken();
    const message = error instanceof Error ? error.message : String(error);
    finish({ type: 'error', kind: 'stack', message: `InternalError: stack overflow (${message})` });
  };

  /** Runs the program's pending jobs; a program with nothing left to wait for has an unsettled promise. */
  const pump = () => {
    if (finished) return;
    let jobs: ReturnType<QuickJSRuntime['executePendingJobs']>;
    try {
      jobs = runtime.executePendingJobs();
    } catch (error) {
      trapped(error);
      return;
    }
    if (jobs.error) {
      const message = errorText(vm.dump(jobs.error));
      jobs.error.dispose();
      finish(failure(message));
      return;
    }
    if (!finished && inflight === 0) {
      // A limit that stopped a handler (a getter looping while the result is read) leaves nothing to settle.
      if (host.expired() || aborted) {
        finish({ type: 'error', kind: host.expired() ? 'timeout' : 'aborted', message: 'The program was stopped.' });
        return;
      }
      finish({
        type: 'error',
        kind: 'unsettled',
        message:
          'The program is waiting for a promise that nothing will ever settle (no tool call or timer is running). Make sure every promise you await resolves.',
      });
    }
  };

  const failure = (message: string): SandboxOutcome => ({ type: 'error', kind: classify(message), message });
  const classify = (message: string): SandboxErrorKind => {
    if (/out of memory/i.test(message)) return 'memory';
    if (/stack overflow|call stack size/i.test(message)) return 'stack';
    if (host.expired()) return 'timeout';
    if (aborted) return 'aborted';
    return 'thrown';
  };

  const track = <T>(promise: Promise<T>, id: number, text: (value: T) => string | undefined) => {
    inflight += 1;
    promise.then(
      (value) => {
        inflight -= 1;
        settle(id, true, text(value));
      },
      (error: unknown) => {
        inflight -= 1;
        settle(id, false, error instanceof Error ? error.message : String(error));
      },
    );
  };

  const text = (handle: QuickJSHandle | undefined) =>
    handle !== undefined && vm.typeof(handle) === 'string' ? vm.getString(handle) : undefined;
  const hostFn = vm.newFunction('host', (kindHandle, idHandle, aHandle, bHandle) => {
    if (finished) return;
    const kind = text(kindHandle);
    const id = vm.typeof(idHandle) === 'number' ? vm.getNumber(idHandle) : 0;
    const a = text(aHandle);
    if (kind === 'call') {
      const input = text(bHandle);
      if (a !== undefined && input !== undefined) track(host.call(a, input), id, (out) => out);
    } else if (kind === 'sleep') track(host.sleep(Number(a) || 0), id, () => undefined);
    else if (kind === 'log') host.log(a ?? '');
    else if (kind === 'final') {
      host.final?.(a);
      finish({ type: 'returned', json: a });
    } else if (kind === 'done') finish({ type: 'returned', json: a });
    else if (kind === 'fail') finish(failure(programError(a ?? 'The program failed.')));
  });
  owned.push(hostFn);

  const prelude = vm.evalCode(SANDBOX_PRELUDE, 'prelude.js');
  const preludeFn = vm.unwrapResult(prelude);
  const names = vm.newArray();
  host.tools.forEach((name, index) => {
    const item = vm.newString(name);
    vm.setProp(names, index, item);
    item.dispose();
  });
  const seed = vm.newNumber(host.seed);
  const clock = vm.newNumber(host.clock);
  const pair = vm.unwrapResult(
    vm.callFunction(preludeFn, vm.undefined, hostFn, names, seed, clock, host.final ? vm.true : vm.false),
  );
  for (const handle of [preludeFn, names, seed, clock]) handle.dispose();
  owned.push(vm.getProp(pair, 0), vm.getProp(pair, 1));
  pair.dispose();

  return {
    run(code, signal) {
      const done = new Promise<SandboxOutcome>((resolve) => {
        finish = (outcome) => {
          if (finished) return;
          finished = true;
          resolve(outcome);
        };
      });
      const onAbort = () => {
        aborted = true;
        finish({ type: 'error', kind: host.expired() ? 'timeout' : 'aborted', message: 'The program was stopped.' });
      };
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      // Set here, not before the prelude: the time budget is the program's.
      runtime.setInterruptHandler(() => aborted || host.expired());
      if (!finished) {
        try {
          start(code);
        } catch (error) {
          trapped(error);
        }
      }
      return done.finally(() => signal?.removeEventListener('abort', onAbort));
    },
    dispose() {
      finished = true;
      // A broken module is dropped whole; freeing into it could fail the same way.
      if (broken) return;
      for (const handle of owned.splice(0)) handle.dispose();
      disposeQuietly(vm, runtime);
    },
  };

  function start(code: string) {
    const evaluated = vm.evalCode(`${WRAP_HEAD}${code}\n})()`, 'program.js');
    if (evaluated.error) {
      const error = vm.dump(evaluated.error);
      evaluated.error.dispose();
      const message = errorText(error);
      const kind = classify(message);
      finish({ type: 'error', kind: kind === 'thrown' && /SyntaxError/.test(message) ? 'syntax' : kind, message });
      return;
    }
    const watched = vm.callFunction(owned[2], vm.undefined, evaluated.value);
    evaluated.value.dispose();
    if (watched.error) {
      const message = errorText(vm.dump(watched.error));
      watched.error.dispose();
      finish(failure(message));
      return;
    }
    watched.value.dispose();
    pump();
  }
}

/** The message of an error dumped out of the sandbox, with its line in the program when it has one. */
function errorText(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const { name, message, stack } = error as { name?: unknown; message?: unknown; stack?: unknown };
    return programError(`${typeof name === 'string' ? name : 'Error'}: ${String(message)}\n${String(stack ?? '')}`);
  }
  return programError(String(error));
}

/** Keeps the first line and the frames in the program itself, with lines counted as the model wrote them. */
function programError(text: string): string {
  const [first, ...frames] = text.split('\n');
  const where = frames.map((frame) => /program\.js:(\d+)/.exec(frame)).find((match) => match !== null);
  return where ? `${first} (line ${Math.max(1, Number(where[1]) - 1)})` : first;
}

/** Frees a context and its runtime; a leak inside QuickJS must not take the host down with it. */
function disposeQuietly(vm: QuickJSContext, runtime: QuickJSRuntime): void {
  try {
    vm.dispose();
    runtime.dispose();
  } catch {
    // The runtime's memory goes with its WebAssembly instance's heap; nothing else holds it.
  }
}
