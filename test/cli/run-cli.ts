import { type ChildProcess, spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..', '..');
/** The CLI's entry point, run from source through tsx. */
export const CLI_ENTRY = join(ROOT, 'src/cli/main.ts');
/** tsx's loader by path, so the CLI also runs from a working directory outside the repository. */
export const TSX_LOADER = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

export interface CliResult {
  code: number | null;
  signal?: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  timeoutMs?: number;
  /** Text written to the child's stdin (a pipe), which is then closed. */
  input?: string;
  /** A file opened as the child's stdin, as `< FILE` in a shell does. */
  stdinFile?: string;
  /** Called with the child once it runs, e.g. to send it SIGINT. */
  onSpawn?: (child: ChildProcess) => void;
}

/** Runs the real `thinkflow` CLI (from source, through tsx) as a child process. */
export function runCli(args: string[], options: RunCliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const stdin =
      options.stdinFile !== undefined
        ? openSync(options.stdinFile, 'r')
        : options.input !== undefined
          ? 'pipe'
          : 'ignore';
    const child = spawn(process.execPath, ['--import', TSX_LOADER, '--', CLI_ENTRY, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, THINKFLOW_MODEL: undefined, ...options.env },
      stdio: [stdin, 'pipe', 'pipe'],
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    options.onSpawn?.(child);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI timed out: ${args.join(' ')}\n${stderr}`));
    }, options.timeoutMs ?? 170_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
