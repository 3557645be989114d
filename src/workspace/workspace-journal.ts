import type { AgentEvent, EventOf, WorkspacePayload } from '../core/index.js';
import type { Workspace, WorkspaceDiff } from './workspace.js';

/** A `workspace_change` event. */
export type WorkspaceChangeEvent = EventOf<'workspace_change'>;

/**
 * Where a workspace's files stand: `local` is this process's snapshot of them, `logical` the id the
 * run's log knows them by (the same, unless they were rebuilt or restored from another process's log).
 */
interface JournalState {
  local: string;
  logical: string;
}

// Per workspace, so every tool list over one workspace (a `task` helper's too) shares where it stands.
const journals = new WeakMap<Workspace, JournalState>();

/** Characters of diff text one event carries; beyond, the diff is cut and says so. */
const DIFF_CHARS = 4000;
/** Files bigger than this get no line diff, only their name. */
const DIFF_FILE_BYTES = 64 * 1024;

/** What the tool that changed files says of itself. */
export interface ChangeContext {
  runId: string;
  callId: string;
  tool: string;
  emit?: (event: AgentEvent) => void;
}

/**
 * Makes sure the workspace has a snapshot of its files before a call that may change them: the first
 * time, it takes one and announces it as the run's `base` (what a resume with no finished change goes back to).
 */
export async function ensureBase(ws: Workspace, ctx: ChangeContext): Promise<void> {
  if (journals.has(ws)) return;
  const id = await ws.snapshot();
  journals.set(ws, { local: id, logical: id });
  ctx.emit?.(
    changeEvent(ws, ctx, { snapshot: id, files: { added: [], modified: [], removed: [] }, diff: '', base: true }),
  );
}

/**
 * After a call that may have changed files: when something changed, takes a snapshot and emits a
 * `workspace_change` event with the files, a short diff and (virtual workspace) the changed files.
 * Costs one walk when nothing changed. Never throws: a failed snapshot is a warning, not a failed call.
 */
export async function recordChange(ws: Workspace, ctx: ChangeContext): Promise<WorkspaceChangeEvent | undefined> {
  const state = journals.get(ws);
  if (!state) return undefined;
  try {
    const files = await ws.diff(state.local);
    if (files.added.length + files.modified.length + files.removed.length === 0) return undefined;
    const id = await ws.snapshot();
    const diff = await diffText(ws, state.local, id, files);
    const payload = ws.kind === 'virtual' ? await payloadOf(ws, id, files) : undefined;
    const event = changeEvent(ws, ctx, {
      snapshot: id,
      from: state.logical,
      files,
      diff,
      ...(payload ? { payload } : {}),
    });
    journals.set(ws, { local: id, logical: id });
    ctx.emit?.(event);
    return event;
  } catch (error) {
    ctx.emit?.({
      type: 'warning',
      runId: ctx.runId,
      ts: Date.now(),
      code: 'workspace_snapshot',
      message: `The workspace could not be snapshotted after ${ctx.tool}: ${error instanceof Error ? error.message : String(error)}`,
    });
    return undefined;
  }
}

/** Notes that the workspace now holds the files the log knows as `logical` (after a restore or rebuild). */
export async function markRestored(ws: Workspace, logical: string, local?: string): Promise<void> {
  journals.set(ws, { local: local ?? (await ws.snapshot()), logical });
}

/** The id the run's log knows the workspace's files by, if a change was ever recorded. */
export function currentSnapshot(ws: Workspace): string | undefined {
  return journals.get(ws)?.logical;
}

function changeEvent(
  ws: Workspace,
  ctx: ChangeContext,
  fields: Omit<WorkspaceChangeEvent, 'type' | 'runId' | 'ts' | 'workspace' | 'callId' | 'tool'>,
): WorkspaceChangeEvent {
  return {
    type: 'workspace_change',
    runId: ctx.runId,
    ts: Date.now(),
    callId: ctx.callId,
    tool: ctx.tool,
    workspace: ws.kind,
    ...fields,
  };
}

/** The changed files themselves, so a new process can rebuild a virtual workspace from the log. */
async function payloadOf(ws: Workspace, id: string, files: WorkspaceDiff): Promise<WorkspacePayload> {
  const payload: WorkspacePayload = { write: {}, remove: [...files.removed] };
  for (const path of [...files.added, ...files.modified]) {
    const bytes = await ws.snapshotFile(id, path);
    if (!bytes) continue;
    const text = utf8(bytes);
    if (text !== undefined) payload.write[path] = text;
    else {
      payload.write[path] = toBase64(bytes);
      payload.binary = [...(payload.binary ?? []), path];
    }
  }
  return payload;
}

/** Applies a virtual workspace's change to its files. */
export async function applyPayload(ws: Workspace, payload: WorkspacePayload): Promise<void> {
  const binary = new Set(payload.binary ?? []);
  for (const path of payload.remove) await ws.remove(path).catch(() => {});
  for (const [path, data] of Object.entries(payload.write)) {
    await ws.writeFile(path, binary.has(path) ? fromBase64(data) : data);
  }
}

/** A short unified-style diff of the changed text files: the lines between their common head and tail. */
async function diffText(ws: Workspace, fromId: string, toId: string, files: WorkspaceDiff): Promise<string> {
  const parts: string[] = [];
  let size = 0;
  for (const [path, kind] of [
    ...files.added.map((p) => [p, 'added'] as const),
    ...files.modified.map((p) => [p, 'modified'] as const),
    ...files.removed.map((p) => [p, 'removed'] as const),
  ]) {
    if (size > DIFF_CHARS) {
      parts.push('[... more changes not shown ...]');
      break;
    }
    const before = kind === 'added' ? '' : await textAt(ws, fromId, path);
    const after = kind === 'removed' ? '' : await textAt(ws, toId, path);
    const part =
      before === undefined || after === undefined
        ? `--- ${path}\n(${kind}, binary or large: no line diff)`
        : lineDiff(path, kind, before, after);
    parts.push(part);
    size += part.length;
  }
  const text = parts.join('\n');
  return text.length > DIFF_CHARS ? `${text.slice(0, DIFF_CHARS)}\n[... diff cut ...]` : text;
}

async function textAt(ws: Workspace, id: string, path: string): Promise<string | undefined> {
  const bytes = await ws.snapshotFile(id, path);
  if (!bytes) return '';
  return bytes.length > DIFF_FILE_BYTES ? undefined : utf8(bytes);
}

/** The changed lines of one file, between the lines both versions start and end with. */
export function lineDiff(path: string, kind: 'added' | 'modified' | 'removed', before: string, after: string): string {
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const removed = a.slice(head, a.length - tail).map((line) => `-${line}`);
  const added = b.slice(head, b.length - tail).map((line) => `+${line}`);
  const header = `--- ${kind === 'added' ? '/dev/null' : `a/${path}`}\n+++ ${kind === 'removed' ? '/dev/null' : `b/${path}`}`;
  return [
    header,
    `@@ -${head + 1},${a.length - head - tail} +${head + 1},${b.length - head - tail} @@`,
    ...removed,
    ...added,
  ].join('\n');
}

function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
