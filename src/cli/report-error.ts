import { CommanderError } from 'commander';
import pc from 'picocolors';
import { errorMessage, isThinkflowError, redactText } from '../core/index.js';
import { exitCodeForError } from './exit-codes.js';

/** How a command reports the error that stopped it. */
export interface ReportErrorOptions {
  /** Shown before the message: `thinkflow run: …`. */
  command?: string;
  /** Write `{"error":{…}}` as one JSON line instead of text (the command ran with `--json`). */
  json?: boolean;
  stream?: NodeJS.WritableStream;
  color?: boolean;
}

/** The JSON form of an error on stderr under `--json`: name, code, message and the exit code. */
export function errorJson(error: unknown): Record<string, unknown> {
  const exitCode = exitCodeForError(error);
  if (isThinkflowError(error)) {
    const json = error.toJSON();
    return { ...json, message: redactText(String(json.message ?? '')), exitCode };
  }
  if (error instanceof CommanderError)
    return { name: 'UsageError', code: error.code, message: error.message.replace(/^error: /, ''), exitCode };
  return { name: error instanceof Error ? error.name : 'Error', message: redactText(errorMessage(error)), exitCode };
}

/**
 * Writes the error that stopped a command once, on stderr, and returns the exit code for it
 * (see `exitCodeForError`). Commander's own usage errors were already printed by commander, so only
 * their JSON form is written here.
 */
export function reportError(error: unknown, options: ReportErrorOptions = {}): number {
  const stream = options.stream ?? process.stderr;
  const code = exitCodeForError(error);
  if (options.json) {
    if (code !== 0) stream.write(`${JSON.stringify({ error: errorJson(error) })}\n`);
  } else if (!(error instanceof CommanderError)) {
    const c = pc.createColors(options.color ?? false);
    stream.write(`${c.red(`${options.command ?? 'thinkflow'}:`)} ${redactText(errorMessage(error))}\n`);
  }
  return code;
}

/** Runs a command's work and sets the exit code: the code the work returns, or `reportError`'s when it throws. */
export async function exitWith(work: () => Promise<number>, options: ReportErrorOptions): Promise<void> {
  try {
    process.exitCode = await work();
  } catch (error) {
    process.exitCode = reportError(error, options);
  }
}
