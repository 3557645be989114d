import { nodeBuiltin } from '../core/index.js';
import { outputCollector } from './cut-output.js';
import { type BwrapPlan, bwrapArgs } from './sandbox-args.js';
import type { ExecResult } from './workspace.js';

/** How to start bwrap: as which host user (root runs the sandbox as `nobody`, so process limits bind). */
export interface SandboxSpawn {
  uid?: number;
  gid?: number;
  timeoutMs: number;
  stdin?: string;
  signal?: AbortSignal;
}

// Output past this many times the limit is not worth reading: the command is stopped.
const OUTPUT_STOP_FACTOR = 8;
const SIGXFSZ_EXIT = 128 + 25;

/**
 * Runs one command under bwrap and waits for it. bwrap leads its own process group; on a timeout, an
 * abort or runaway output the group is killed, and `--die-with-parent` with the PID namespace takes
 * every process the command started with it.
 */
export function runBwrap(plan: BwrapPlan, spawn: SandboxSpawn): Promise<ExecResult> {
  const { spawn: start } = nodeBuiltin('node:child_process', 'The sandbox workspace');
  const limit = plan.limits.outputBytes;
  const stdout = outputCollector(limit);
  const stderr = outputCollector(limit);
  return new Promise((resolve, reject) => {
    const child = start('bwrap', bwrapArgs(plan), {
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {},
      ...(spawn.uid !== undefined ? { uid: spawn.uid, gid: spawn.gid } : {}),
    });
    let stopped: ExecResult['limit'] | 'abort' | undefined;
    const kill = (why: typeof stopped) => {
      stopped ??= why;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {}
    };
    const timer = setTimeout(() => kill('time'), spawn.timeoutMs);
    const onAbort = () => kill('abort');
    spawn.signal?.addEventListener('abort', onAbort, { once: true });
    const onData = (collector: ReturnType<typeof outputCollector>) => (chunk: Uint8Array) => {
      collector.push(chunk);
      if (stdout.total + stderr.total > limit * OUTPUT_STOP_FACTOR) kill('output');
    };
    child.stdout.on('data', onData(stdout));
    child.stderr.on('data', onData(stderr));
    child.stdin.on('error', () => {});
    child.stdin.end(spawn.stdin ?? '');
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      spawn.signal?.removeEventListener('abort', onAbort);
      let exitCode = code ?? 128 + (signal === 'SIGKILL' ? 9 : 15);
      const notes: string[] = [];
      if (stopped === 'time') {
        exitCode = 124;
        notes.push(`[killed: the command ran over its time limit of ${spawn.timeoutMs} ms (命令超时)]`);
      } else if (stopped === 'output') {
        notes.push('[killed: the command printed far more than the output limit (输出过多，命令已终止)]');
      } else if (stopped === 'abort') notes.push('[killed: the command was cancelled (命令已取消)]');
      if (exitCode === SIGXFSZ_EXIT) {
        notes.push(`[stopped: a file grew past the disk limit of ${plan.limits.diskBytes} bytes (超过磁盘上限)]`);
      }
      const forkRefused = /fork: (retry: )?Resource temporarily unavailable/.test(stderr.text());
      for (const note of notes) stderr.push(`\n${note}\n`);
      const limit: ExecResult['limit'] =
        stopped && stopped !== 'abort'
          ? stopped
          : exitCode === SIGXFSZ_EXIT
            ? 'disk'
            : forkRefused
              ? 'processes'
              : stdout.cut || stderr.cut
                ? 'output'
                : undefined;
      resolve({ stdout: stdout.text(), stderr: stderr.text(), exitCode, ...(limit ? { limit } : {}) });
    });
  });
}
