import { cursorAfter, type RunRecord, type RunStore, UNFINISHED } from '../records/index.js';

/** The store reads a thread's runs need. */
export type ThreadStore = Pick<RunStore, 'queryRuns' | 'getRun'>;

/**
 * The turn before `run` on its thread: the newest run of the same agent and thread created before it
 * (undefined for the thread's first turn, or a run on no thread).
 */
export async function previousThreadRun(store: ThreadStore, run: RunRecord): Promise<RunRecord | undefined> {
  if (run.thread === undefined) return undefined;
  const page = await store.queryRuns({ agent: run.agent, thread: run.thread, before: cursorAfter(run), limit: 1 });
  const id = page.runs[0]?.id;
  return id === undefined ? undefined : store.getRun(id);
}

/**
 * A run of `agent` on `thread` that has not ended (queued, running or waiting on a person), other than
 * `except` and, when `before` is given, created before that run; undefined when the thread is free.
 */
export async function unfinishedThreadRun(
  store: Pick<RunStore, 'queryRuns'>,
  request: { agent: string; thread: string; except?: string; before?: RunRecord },
): Promise<string | undefined> {
  const { agent, thread, except, before } = request;
  const page = await store.queryRuns({
    agent,
    thread,
    status: UNFINISHED,
    limit: 10,
    ...(before ? { before: cursorAfter(before) } : {}),
  });
  return page.runs.find((run) => run.id !== except)?.id;
}

/** The message of a start refused (or a run failed) because another run answers the thread now. */
export function threadBusyMessage(agent: string, thread: string, runId: string): string {
  return `Thread "${thread}" of agent "${agent}" is still being answered by run "${runId}", and the thread shares one workspace: wait for that run to end (or cancel it), then send the next turn.`;
}
