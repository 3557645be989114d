/**
 * Workspace costs, each printed as a range over rounds (the machine is shared; read ranges, not points):
 * per-command overhead of `echo` on the virtual backend (target ≤ 1 ms) and under bubblewrap (≤ 30 ms),
 * and a snapshot of a 1,000-file, 50 MB workspace after one change (≤ 50 ms) on both backends; then what
 * the tools add per changing call on that workspace (`recordChange`: a diff walk, and when something
 * changed a snapshot, a line diff and, virtual, the changed files for the log), after one change and after none.
 *
 *   npx tsx bench/workspace.bench.ts
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxWorkspace, virtualWorkspace, type Workspace } from '../src/workspace/index.js';
import { ensureBase, recordChange } from '../src/workspace/workspace-journal.js';

const ROUNDS = 5;
const FILES = 1000;
const FILE_BYTES = 50 * 1024;

function range(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[0].toFixed(2)}–${sorted.at(-1)?.toFixed(2)} ms (median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)})`;
}

/** Mean milliseconds of one `echo`, per round. */
async function commandOverhead(ws: Workspace, perRound: number): Promise<number[]> {
  await ws.exec('echo warm');
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now();
    for (let i = 0; i < perRound; i++) await ws.exec('echo hi');
    rounds.push((performance.now() - start) / perRound);
  }
  return rounds;
}

/** Milliseconds of a snapshot after changing one file of 1,000 (50 MB), per round. */
async function snapshotAfterOneChange(ws: Workspace): Promise<number[]> {
  const body = 'x'.repeat(FILE_BYTES);
  for (let i = 0; i < FILES; i++) await ws.writeFile(`数据/${Math.floor(i / 100)}/文件${i}.txt`, body);
  await ws.snapshot();
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    await ws.writeFile(`数据/0/文件${r}.txt`, `changed ${r}`);
    const start = performance.now();
    await ws.snapshot();
    rounds.push(performance.now() - start);
  }
  return rounds;
}

/** Milliseconds `recordChange` adds to a call on the 1,000-file workspace: after one change, and after none. */
async function perCall(ws: Workspace): Promise<{ changed: number[]; unchanged: number[] }> {
  const ctx = { runId: 'bench', callId: 'c', tool: 'bash' };
  await ensureBase(ws, ctx);
  const changed: number[] = [];
  const unchanged: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    await ws.writeFile(`数据/1/文件${100 + r}.txt`, `changed again ${r}\n`);
    let start = performance.now();
    await recordChange(ws, ctx);
    changed.push(performance.now() - start);
    start = performance.now();
    await recordChange(ws, ctx);
    unchanged.push(performance.now() - start);
  }
  return { changed, unchanged };
}

const base = mkdtempSync(join(tmpdir(), 'thinkflow-ws-bench-'));
chmodSync(base, 0o755);
try {
  const virtual = await virtualWorkspace({ limits: { diskBytes: 256 * 1024 * 1024 } });
  console.log(`virtual  echo:                       ${range(await commandOverhead(virtual, 200))}   (target ≤ 1 ms)`);
  console.log(
    `virtual  snapshot, 1,000 files/50 MB: ${range(await snapshotAfterOneChange(virtual))}   (target ≤ 50 ms)`,
  );
  const virtualCall = await perCall(virtual);
  console.log(`virtual  per call, one file changed: ${range(virtualCall.changed)}`);
  console.log(`virtual  per call, nothing changed:  ${range(virtualCall.unchanged)}`);
  // The floor on this machine: a plain process, no sandbox (a loaded machine shows here first).
  const plain: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now();
    for (let i = 0; i < 20; i++) spawnSync('/bin/bash', ['-c', 'echo hi']);
    plain.push((performance.now() - start) / 20);
  }
  console.log(`plain    bash -c echo (no sandbox):  ${range(plain)}`);
  const sandbox = await sandboxWorkspace({ dir: join(base, 'ws') });
  console.log(`sandbox  echo:                       ${range(await commandOverhead(sandbox, 20))}   (target ≤ 30 ms)`);
  console.log(
    `sandbox  snapshot, 1,000 files/50 MB: ${range(await snapshotAfterOneChange(sandbox))}   (target ≤ 50 ms)`,
  );
  const sandboxCall = await perCall(sandbox);
  console.log(`sandbox  per call, one file changed: ${range(sandboxCall.changed)}`);
  console.log(`sandbox  per call, nothing changed:  ${range(sandboxCall.unchanged)}`);
} finally {
  rmSync(base, { recursive: true, force: true });
}
