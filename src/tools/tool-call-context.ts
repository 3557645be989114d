import type { LazySignal } from './run-with-timeout.js';
import type { ApprovalRequest, Logger, ParentRun, ToolContext } from './tool.js';

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

  constructor(
    handle: LazySignal,
    runId: string,
    callId: string,
    logger: Logger,
    approve: (request: ApprovalRequest) => Promise<boolean>,
    extras: Pick<ToolContext, 'ask' | 'parent'> = {},
  ) {
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
}
