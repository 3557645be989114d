/**
 * What a step of the journal records: a model call or a tool call (code mode's nested calls and the
 * workspace's commands included: they are tools; `command` is kept for an engine that journals a
 * command outside a tool). The engine shows the kind and name in its own UI (Restate's journal,
 * DBOS's step table); they never change what the step does.
 */
export interface JournalStep {
  kind: 'model' | 'tool' | 'command';
  /** The model's id, the tool's name, or the command's first word. */
  name: string;
  /**
   * What the step is called with, as JSON: the model request (without its signal), the tool's input,
   * the command. An engine that runs steps in another process (Temporal's activities) rebuilds the
   * call from kind, name and input; Restate and DBOS run the closure and ignore it.
   */
  input?: unknown;
  /**
   * Where the step sits in the run, the same on every replay: `<step>` for a model call,
   * `<step>/<callId>` for a tool call (a nested call's id names its parent: `c1.2`). A label for the
   * engine's UI and for engines that key steps by id (Temporal's activity ids); order stays the key.
   */
  key?: string;
}

/**
 * The one interface a run's durability goes through: everything a run records and reads back on
 * resume. An engine (the built-in one, Restate, DBOS; Temporal later) implements it at the edge,
 * beside its SDK; the loop and the tools never know which engine runs them.
 *
 * Contract for every implementation:
 * - Steps are positional: a replay makes the same calls in the same order and gets the recorded
 *   results back, without running them again. Names are labels, never keys.
 * - A step's value is JSON. A step that failed is recorded as failed and fails the same way on replay.
 * - Exactly one layer retries: thinkflow's (the provider's `maxRetries`, a tool's `retries`), inside
 *   the step. The engine runs a failed step once more only when its process died during it.
 * - `answer` waits durably (days, across restarts) and is resolved from outside by its id.
 */
export interface StepJournal {
  /** Which engine keeps the journal: `builtin`, `restate`, `dbos`, … */
  readonly engine: string;
  /** Runs `fn` once and records its value; a replay returns the record without running `fn`. */
  step<T>(step: JournalStep, fn: () => Promise<T>): Promise<T>;
  /**
   * Waits for a person's answer (an approval, an `ask_user` question). `announce` is called with the
   * id an outside resolver uses (thinkflow's approval routes, Studio, or the engine's own API)
   * before the wait begins, each time the run reaches it (a replay announces again; resolvers dedupe by id).
   */
  answer<T>(key: string, announce: (answerId: string) => void): Promise<T>;
  /** Sleeps durably: a restart does not sleep again the time already slept. */
  sleep(ms: number): Promise<void>;
  /** A number recorded once per run and read back on replay: seeds code mode's `Math.random`. */
  seed(): Promise<number>;
  /** The time, recorded at first read and read back on replay: code mode's clock. */
  now(): Promise<number>;
}

/** What a journal's `answer` resolves with for an approval: approved or not, and why. */
export interface ApprovalAnswer {
  approved: boolean;
  reason?: string;
}
