import type { NestedCalls } from './nested-calls.js';
import type { LazySignal } from './run-with-timeout.js';
import type { ApprovalRequest, Logger, ParentRun, ToolContext } from './tool.js';

/** What every call of a run shares: the run, its logger, who approves and who answers, the parent run. */
export interface CallScope {
  runId: string;
  logger: Logger;
  approve: (request: ApprovalRequest) => Promise<boolean>;
  /** Answers `ctx.ask(question)`, told which call asks; without it tools see no `ask`. */
  ask?: (question: string, call: { callId: string; tool: string }) => Promise<string>;
  parent?: ParentRun;
}

/**
 * The context one tool run receives. A class so `signal`, `approve`, `ask` and `nested` are prototype
 * getters: the AbortSignal and the call's own functions are made only if the tool reads them, so a call
 * costs this one object (docs/loop.md).
 */
export class ToolCallContext implements ToolContext {
  readonly #scope: CallScope;
  readonly #handle: LazySignal;
  readonly #tool: string;
  readonly #nest: ((callId: string, tool: string) => NestedCalls) | undefined;
  #approve: ((request: ApprovalRequest) => Promise<boolean>) | undefined;
  #ask: ((question: string) => Promise<string>) | undefined;
  readonly runId: string;
  readonly callId: string;
  readonly logger: Logger;
  readonly parent?: ParentRun;

  constructor(
    scope: CallScope,
    handle: LazySignal,
    callId: string,
    tool: string,
    nest?: (callId: string, tool: string) => NestedCalls,
  ) {
    this.#scope = scope;
    this.#handle = handle;
    this.#tool = tool;
    this.#nest = nest;
    this.runId = scope.runId;
    this.callId = callId;
    this.logger = scope.logger;
    this.parent = scope.parent;
  }

  get signal(): AbortSignal {
    return this.#handle.signal;
  }

  /** Asks for approval; the call's id goes with the request, so the answer finds its call. */
  get approve(): (request: ApprovalRequest) => Promise<boolean> {
    const { approve } = this.#scope;
    this.#approve ??= (request) => approve({ ...request, callId: this.callId });
    return this.#approve;
  }

  /** Puts a question to a person (the run's `ask`), or undefined when nobody answers. */
  get ask(): ((question: string) => Promise<string>) | undefined {
    const { ask } = this.#scope;
    if (!ask) return undefined;
    const call = { callId: this.callId, tool: this.#tool };
    this.#ask ??= (question) => ask(question, call);
    return this.#ask;
  }

  get nested(): NestedCalls | undefined {
    return this.#nest ? this.#nest(this.callId, this.#tool) : undefined;
  }
}
