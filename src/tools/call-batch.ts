import type { ToolEndRecord } from './tool-records.js';

/**
 * The records of one `execute`, in call order. Each call hands its record in as it ends; the batch
 * gives them back directly when every call ended at once (synchronous tools), else through one
 * promise that the last call resolves. This replaces a promise per call plus `Promise.all`: an
 * asynchronous call then costs no promise of the executor's own (docs/loop.md has the numbers).
 */
export class CallBatch {
  readonly records: ToolEndRecord[];
  #left: number;
  #resolve: ((records: ToolEndRecord[]) => void) | undefined;
  #reject: ((error: unknown) => void) | undefined;
  #failure: { error: unknown } | undefined;

  constructor(size: number) {
    this.records = new Array<ToolEndRecord>(size);
    this.#left = size;
  }

  /** A call ended: the last one resolves the batch. */
  set(index: number, record: ToolEndRecord): void {
    this.records[index] = record;
    if (--this.#left === 0) this.#resolve?.(this.records);
  }

  /**
   * Something outside the tool broke (a throwing `beforeStart` is an observation, not this): the batch
   * rejects at once, as `Promise.all` would.
   */
  fail(error: unknown): void {
    if (this.#failure) return;
    this.#failure = { error };
    this.#reject?.(error);
  }

  /** Watches a call that waits (for approval, a slot or a retry): its rejection becomes the batch's. */
  follow(pending: PromiseLike<unknown>): void {
    pending.then(undefined, (error: unknown) => this.fail(error));
  }

  /** The records, directly when every call already ended, else once the last one does. */
  result(): ToolEndRecord[] | Promise<ToolEndRecord[]> {
    if (this.#failure) return Promise.reject(this.#failure.error);
    if (this.#left === 0) return this.records;
    return new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }
}
