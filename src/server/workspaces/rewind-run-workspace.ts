import { currentSnapshot } from '../../workspace/index.js';
import type { AgentEntry, RewindResult, RunRecord, RunStore } from '../records/index.js';
import { isFinished, resolveAgent } from '../records/index.js';
import { sharesThreadWorkspace } from './thread-folder.js';
import { stepsOf } from './workspace-history.js';

/**
 * Puts an ended run's workspace back to how it was when step `step` began (`POST /v1/runs/:id/rewind`):
 * a sandbox's folder is restored from its snapshots; for every kind, a `workspace_change` event with
 * `rewound` is logged, so the run's workspace opens at that step from then on (a memory workspace too).
 */
export async function rewindRunWorkspace(options: {
  entry: AgentEntry | undefined;
  store: RunStore;
  run: RunRecord;
  step: number;
}): Promise<RewindResult> {
  const { entry, store, run, step } = options;
  if (!entry)
    return {
      ok: false,
      reason: 'unknown_agent',
      message: `Run "${run.id}" was made by an agent this server no longer has.`,
    };
  if (!isFinished(run.status)) {
    return {
      ok: false,
      reason: 'active',
      message: `Run "${run.id}" is ${run.status}: rewind its workspace once it has ended (or fork it at that step).`,
    };
  }
  if (sharesThreadWorkspace(entry) && run.thread !== undefined) {
    const later = await store.queryRuns({ agent: run.agent, thread: run.thread, limit: 1 });
    const latest = later.runs[0]?.id;
    if (latest !== undefined && latest !== run.id) {
      return {
        ok: false,
        reason: 'active',
        message: `Run "${run.id}" is not the latest turn of thread "${run.thread}" (run "${latest}" came after it), and the thread shares one workspace: rewind the latest turn, or fork this one.`,
      };
    }
  }
  const steps = await stepsOf(store, run);
  if (!Number.isInteger(step) || step < 0 || step > steps.length) {
    return {
      ok: false,
      reason: 'invalid_step',
      message: `step must be a step of run "${run.id}", 0 to ${steps.length} (got ${String(step)}).`,
    };
  }
  const agent = await resolveAgent(entry, { run, store, rewindTo: step });
  const workspace = agent.workspace;
  if (!workspace) {
    return {
      ok: false,
      reason: 'no_workspace',
      message: `Run "${run.id}" has no workspace: its agent has no workspace: in the config.`,
    };
  }
  try {
    const snapshot = currentSnapshot(workspace);
    if (snapshot !== undefined) {
      await store.appendEvent(run.id, (await store.lastSeq(run.id)) + 1, {
        type: 'workspace_change',
        runId: run.id,
        ts: Date.now(),
        workspace: workspace.kind,
        snapshot,
        files: { added: [], modified: [], removed: [] },
        diff: '',
        rewound: { step },
      });
    }
    return { ok: true, run, ...(snapshot === undefined ? {} : { snapshot }) };
  } finally {
    await workspace.dispose();
  }
}
