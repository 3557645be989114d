import { ConfigError, nodeBuiltin } from '../../core/index.js';
import {
  markRestored,
  restoreWorkspace,
  sandboxWorkspace,
  virtualWorkspace,
  type Workspace,
} from '../../workspace/index.js';
import type { AgentEntry, AgentRunContext, RunRecord, ServableAgent } from '../records/index.js';
import { sweepWorkspacesSoon } from './sweep-workspaces.js';
import { markThreadScoped, threadFolder, writeThreadLabel } from './thread-folder.js';
import { threadBusyMessage, unfinishedThreadRun } from './thread-runs.js';
import { type RunWorkspaceHistory, runWorkspaceHistory, workspaceHistoryAt } from './workspace-history.js';
import { WorkspaceSpec } from './workspace-spec.js';

const FEATURE = 'A per-run sandbox workspace';

/**
 * An agent entry whose every run gets its own workspace: `build` makes the run's agent on it. A run
 * that resumes (after a restart or a kill -9) finds the files as its last finished call left them; a
 * fork finds them as they were at the step it was forked at. A memory workspace is rebuilt from the
 * run's log; a sandbox one is the folder `<dir>/<run id>` with its snapshots in `<dir>/.<run id>.snapshots`,
 * removed once retention has deleted the run. The workspace is disposed when the run ends.
 *
 * With `scope: 'thread'`, the runs of one conversation thread (`RunRecord.thread`) share a workspace:
 * each turn starts from the files the turn before it left (a memory one rebuilt from the thread's runs
 * in order, a sandbox one the folder `<dir>/thread-<hash>`, removed once retention has deleted the
 * thread's last run). A fork of a turn gets a copy, never the thread's own files. A run that finds an
 * earlier turn of its thread unfinished fails rather than share the files with it (the server refuses
 * such a start with 409 before it gets here; this catches starts that raced on other processes).
 *
 * @example
 * export default defineConfig({
 *   agents: {
 *     coder: withRunWorkspace({ kind: 'sandbox', dir: './workspaces' }, (workspace) => new Agent({ model, workspace })),
 *   },
 * });
 */
export function withRunWorkspace(spec: WorkspaceSpec, build: (workspace: Workspace) => ServableAgent): AgentEntry {
  const parsed = WorkspaceSpec.safeParse(spec);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${['workspace', ...i.path].join('.')}: ${i.message}`);
    throw new ConfigError({ message: `Invalid workspace: ${issues.join('; ')}` });
  }
  const checked = parsed.data;
  const entry: AgentEntry = async (context) => {
    if (checked.scope === 'thread' && context && context.rewindTo === undefined) await refuseBusyThread(context);
    const workspace = await openRunWorkspace(checked, context);
    const agent = build(workspace);
    return {
      name: agent.name,
      workspace,
      async run(input, options) {
        try {
          return await agent.run(input, options);
        } finally {
          await workspace.dispose();
        }
      },
    };
  };
  if (checked.scope === 'thread') markThreadScoped(entry);
  return entry;
}

/** Throws when an earlier run of the same thread has not ended: two runs must not change one workspace at once. */
async function refuseBusyThread({ run, store }: AgentRunContext): Promise<void> {
  if (run.thread === undefined) return;
  const busy = await unfinishedThreadRun(store, { agent: run.agent, thread: run.thread, except: run.id, before: run });
  if (busy) throw new Error(threadBusyMessage(run.agent, run.thread, busy));
}

/** The folder (under the spec's `dir`) that holds a run's files: its thread's with `scope: thread`, else its own. */
async function folderOf(spec: WorkspaceSpec, run: RunRecord): Promise<string> {
  return spec.scope === 'thread' && run.thread !== undefined ? threadFolder(run.agent, run.thread) : run.id;
}

/**
 * The workspace of one run, with its files as the run's log says they should be. Without a run (a
 * trace replay) it is a fresh one.
 */
export async function openRunWorkspace(spec: WorkspaceSpec, context?: AgentRunContext): Promise<Workspace> {
  const threads = spec.scope === 'thread';
  const history: RunWorkspaceHistory = !context
    ? { events: [], owner: new Map() }
    : context.rewindTo === undefined
      ? await runWorkspaceHistory(context.store, context.run, { threads })
      : await workspaceHistoryAt(context.store, context.run, context.rewindTo, threads);
  if (spec.kind === 'memory') {
    const ws = await virtualWorkspace({ files: spec.files, env: spec.env, limits: spec.limits });
    await restoreWorkspace(ws, history.point, history.events);
    return ws;
  }
  const { join, resolve } = nodeBuiltin('node:path', FEATURE);
  const base = resolve(spec.dir ?? 'workspaces');
  const folder = context ? await folderOf(spec, context.run) : `unbound-${crypto.randomUUID()}`;
  if (context) sweepWorkspacesSoon(base, context.store);
  if (context?.run.thread !== undefined && folder !== context.run.id) writeThreadLabel(base, folder, context.run);
  const dir = join(base, folder);
  const point = history.point;
  const owner = point && history.owner.get(point.snapshot);
  const from = owner && (await folderOf(spec, owner));
  // A fork's files are another run's (or thread's) snapshot: copied in before the folder opens (and is handed to the sandbox's user).
  const copied =
    point && from && from !== folder && copySnapshot(join(base, `.${from}.snapshots`, point.snapshot), dir);
  const ws = await sandboxWorkspace({
    dir,
    snapshotDir: join(base, `.${folder}.snapshots`),
    network: spec.network,
    env: spec.env,
    limits: spec.limits,
  });
  if (copied && point) await markRestored(ws, point.snapshot);
  else await restoreWorkspace(ws, point, history.events);
  return ws;
}

/** Copies a sandbox snapshot's files into `dir` (emptied first); false when the snapshot is gone. */
function copySnapshot(snapshot: string, dir: string): boolean {
  const { existsSync, rmSync, cpSync, mkdirSync } = nodeBuiltin('node:fs', FEATURE);
  if (!existsSync(`${snapshot}/files`)) return false;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(`${snapshot}/files`, dir, { recursive: true, verbatimSymlinks: true });
  return true;
}
