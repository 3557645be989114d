import type { AgentEvent } from '../core/index.js';

/**
 * A trace's events run by run. A trace file may hold several runs: `--trace` and `createTraceWriter`
 * append, so a second run written to the same file follows the first. Each root run (an agent run or a
 * workflow, with every pass of it: a resumed run keeps its id) gets its own events and those of the runs
 * it started (`parentRunId`, at any depth), in the order they were written. The runs come in the order
 * they first appear; a trace of one run is one list.
 *
 * @example
 * for (const run of traceRuns(readTrace('runs.jsonl'))) console.log(renderTimeline(run));
 */
export function traceRuns(events: readonly AgentEvent[]): AgentEvent[][] {
  /** Each run id's parent, as its events name it. */
  const parents = new Map<string, string>();
  for (const event of events) {
    if (event.parentRunId && event.parentRunId !== event.runId) parents.set(event.runId, event.parentRunId);
  }
  const rootOf = (runId: string): string => {
    let root = runId;
    // At most as many hops as there are runs: a cycle in a hand-edited trace ends the walk.
    for (let hops = 0; hops <= parents.size; hops++) {
      const parent = parents.get(root);
      if (parent === undefined) break;
      root = parent;
    }
    return root;
  };
  const runs = new Map<string, AgentEvent[]>();
  for (const event of events) {
    const root = rootOf(event.runId);
    const run = runs.get(root);
    if (run) run.push(event);
    else runs.set(root, [event]);
  }
  return [...runs.values()];
}
