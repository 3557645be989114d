import type * as Dbos from '@dbos-inc/dbos-sdk';
import type { Agent } from '../../agent/index.js';
import { type ApprovalAnswer, type Message, type RunResult, requireOptional } from '../../core/index.js';
import { type JournaledAgentOptions, runJournaled } from '../journaled-agent.js';
import { dbosJournal } from './dbos-journal.js';

/** What `dbosAgent` takes besides the agent. */
export interface DbosAgentOptions extends JournaledAgentOptions {
  /** Runs of this agent one process runs at once (DBOS `workerConcurrency`). Default 10. */
  workerConcurrency?: number;
}

/** A run as the workflow takes it: the input and, for a conversation, its thread. */
export interface DbosRunRequest {
  input: string;
  thread?: string;
  /** Earlier turns, for a run outside a thread. */
  history?: Message[];
}

/** An agent as a DBOS workflow, with the queue that scales it out and the calls that steer its runs. */
export interface DbosAgent {
  /** The workflow's registered name. */
  readonly name: string;
  /** The queue runs go on: every process that called `launch()` takes runs from it. */
  readonly queueName: string;
  /** The registered workflow, to call or start yourself. */
  readonly workflow: (request: DbosRunRequest) => Promise<RunResult>;
  /** Registers the queue (after `DBOS.launch()`); call it once per process. */
  launch(): Promise<void>;
  /**
   * Enqueues a run and resolves with its id. Runs on one `thread` run one at a time, in order, and each
   * sees the thread's earlier turns.
   */
  start(input: string, options?: { runId?: string; thread?: string }): Promise<string>;
  /** Waits for a run's result. */
  result(runId: string): Promise<RunResult>;
  /** Answers what a run waits for: `{ approved }` for an approval, a string for a question. */
  answer(runId: string, answerId: string, answer: ApprovalAnswer | string): Promise<void>;
  /** Cancels a run: the step or wait it is in ends it as aborted. */
  cancel(runId: string): Promise<void>;
}

/**
 * Makes `agent` a DBOS workflow on the PostgreSQL DBOS runs on: each model call and tool call is a
 * `DBOS.runStep`, approvals and `ask_user` wait on `DBOS.recv`, runs go on a DBOS queue so any number
 * of processes share them, and a process that restarts recovers its runs. Call it before
 * `DBOS.launch()`, then `launch()` on the result. Answer what `onPending` reports with
 * `answer(runId, answerId, …)`.
 *
 * Retries: thinkflow's own (the provider's `maxRetries`, a tool's `retries`) are the only layer; steps
 * run with `retriesAllowed: false`, and a failed step is recorded as failed.
 *
 * @example
 * const support = dbosAgent(agent, { name: 'support' });
 * DBOS.setConfig({ name: 'app', systemDatabaseUrl: process.env.DATABASE_URL });
 * await DBOS.launch();
 * await support.launch();
 * const runId = await support.start('Where is my order?');
 */
export function dbosAgent(agent: Agent, options: DbosAgentOptions = {}): DbosAgent {
  const sdk = requireOptional<typeof Dbos>('dbos', '@dbos-inc/dbos-sdk');
  const { DBOS } = sdk;
  const name = options.name ?? agent.name ?? 'agent';
  const queueName = `thinkflow-${name}`;

  const run = async (request: DbosRunRequest): Promise<RunResult> => {
    const abort = new AbortController();
    const journal = dbosJournal(sdk, abort);
    const history = request.thread
      ? await DBOS.runStep(() => threadHistory(DBOS, name, request.thread ?? ''), { name: 'thread-history' })
      : (request.history ?? []);
    const result = await runJournaled(agent, request.input, journal, {
      runId: DBOS.workflowID ?? '',
      signal: abort.signal,
      history,
      onEvent: options.onEvent,
      onPending: options.onPending,
    });
    if (journal.cancelled) throw journal.cancelled;
    return JSON.parse(JSON.stringify(result)) as RunResult;
  };
  const workflow = DBOS.registerWorkflow(run, { name });

  return {
    name,
    queueName,
    workflow,
    async launch() {
      // Partitioned by thread, one at a time within each: a thread's runs go in order.
      await DBOS.registerQueue(queueName, {
        workerConcurrency: options.workerConcurrency ?? 10,
        partitionConcurrency: 1,
      });
    },
    async start(input, { runId, thread } = {}) {
      const workflowID = runId ?? crypto.randomUUID();
      const queuePartitionKey = thread ?? workflowID;
      const handle = await DBOS.startWorkflow(workflow, {
        workflowID,
        queueName,
        enqueueOptions: { queuePartitionKey },
      })({ input, thread });
      return handle.workflowID;
    },
    result: (runId) => DBOS.retrieveWorkflow<RunResult>(runId).getResult(),
    answer: (runId, answerId, answer) => DBOS.send(runId, answer, answerId),
    cancel: (runId) => DBOS.cancelWorkflow(runId),
  };
}

/** The turns of a thread's finished runs, oldest first. */
async function threadHistory(dbos: typeof Dbos.DBOS, name: string, thread: string): Promise<Message[]> {
  const runs = await dbos.listWorkflows({ workflowName: name, status: 'SUCCESS', loadInput: true, loadOutput: true });
  const turns: Message[] = [];
  for (const run of runs.sort((a, b) => a.createdAt - b.createdAt)) {
    const request = run.input?.[0] as DbosRunRequest | undefined;
    if (request?.thread !== thread) continue;
    const output = (run.output as RunResult | undefined)?.output ?? '';
    turns.push({ role: 'user', content: request.input }, { role: 'assistant', content: output });
  }
  return turns;
}
