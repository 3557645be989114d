import { CommanderError } from 'commander';
import type { RunStatus } from '../core/index.js';

/**
 * The CLI's exit codes, the same for every command:
 * 0 done; 1 the work ended without an answer (a run failed or stopped at a limit, an eval case failed);
 * 2 usage or configuration (an unknown flag, a bad value, no model, a missing optional dependency);
 * 130 interrupted (Ctrl-C).
 */
export const EXIT_CODES = { done: 0, noAnswer: 1, usage: 2, interrupted: 130 } as const;

/** The exit-code table as `--help` and docs/cli.md show it. */
export const EXIT_CODES_HELP = `Exit codes:
  0    done
  1    ended without an answer (failed, max_steps, loop_detected, budget_exceeded; a failing eval)
  2    usage or configuration error (unknown flag, bad value, no model, missing optional dependency)
  130  interrupted (Ctrl-C)`;

/** The exit code for a run's status: 0 for `done`, 130 for `aborted`, 1 for every other end. */
export function exitCodeForStatus(status: RunStatus): number {
  if (status === 'done') return EXIT_CODES.done;
  if (status === 'aborted') return EXIT_CODES.interrupted;
  return EXIT_CODES.noAnswer;
}

/**
 * The exit code for an error that stopped a command: 2 for what a person fixes in the command line or
 * the configuration (commander's usage errors, a `ConfigError`, including a missing optional
 * dependency), 0 for `--help`/`--version`, 1 for anything else.
 */
export function exitCodeForError(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_CODES.usage;
  // By shape (as isThinkflowError checks), so `--help` loads nothing of core.
  if ((error as { code?: unknown } | null)?.code === 'config') return EXIT_CODES.usage;
  return EXIT_CODES.noAnswer;
}
