import type { NestedCalls } from './nested-calls.js';
import type { LazySignal } from './run-with-timeout.js';
import type { ApprovalRequest, Logger, ParentRun, ToolContext } from './tool.js';

/** What a call's context holds beyond the run's basics: who answers questions, the parent run, nested calls. */
export interface CallExtras extends Pick<ToolContext, 'ask' | 'parent'> {
  /** Makes the nested-call handle of a call, on first read of `ctx.nested`. */
  nest?: (callId: string, tool: string) => NestedCalls;
  tool?: string;
}

/**
 * The context one tool run receives. A class so `signal` is a prototype getter: the AbortSignal
 * is only made if the tool reads it, with no per-call accessor closures.
 */
export class ToolCallContext implements ToolContext {
  readonly #handle: LazySignal;
  readonly runId: string;
  readonly callId: string;
  readonly logger: Logger;
  readonly approve: (request: ApprovalRequest) => Promise<boolean>;
  readonly ask?: (question: string) => Promise<string>;
  readonly parent?: ParentRun;
  readonly #extras: CallExtras;

  constructor(
    handle: LazySignal,
    runId: string,
    callId: string,
    logger: Logger,
    approve: (request: ApprovalRequest) => Promise<boolean>,
    extras: CallExtras = {},
  ) {
    this.#extras = extras;
    this.ask = extras.ask;
    this.parent = extras.parent;
    this.#handle = handle;
    this.runId = runId;
    this.callId = callId;
    this.logger = logger;
    // The call's id goes with each question it asks, so the answer finds its call.
    this.approve = (request) => approve({ ...request, callId });
  }

  get signal(): AbortSignal {
    return this.#handle.signal;
  }

  get nested(): NestedCalls | undefined {
    const { nest, tool } = this.#extras;
    return nest && tool ? nest(this.callId, tool) : undefined;
  }
}
