import { isFinished, type RunRecord, type RunService } from '../../records/index.js';

/** Resolves once the run ended or waits for input (or the signal aborts). */
export async function settled(runs: RunService, runId: string, signal: AbortSignal): Promise<RunRecord | undefined> {
  for (;;) {
    const run = await runs.get(runId);
    if (!run || signal.aborted || isFinished(run.status)) return run;
    if (run.status === 'waiting' && run.questions?.some((q) => !q.answer)) return run;
    // Short: a change can be signalled just before its write is read back.
    await runs.changed(runId, 100);
  }
}

/** The run once its question is stored (the event comes just before the status). */
export async function settledQuestion(runs: RunService, runId: string): Promise<RunRecord | undefined> {
  for (let tries = 0; tries < 50; tries++) {
    const run = await runs.get(runId);
    if (!run || run.questions?.some((q) => !q.answer) || run.status !== 'running') return run;
    await runs.changed(runId, 100);
  }
  return runs.get(runId);
}
