import type { CommandIo } from './trace-command.js';

/** The flags of `thinkflow eval run`. */
export interface EvalFlags {
  model?: string;
  repeat?: string;
  concurrency?: string;
  minPass?: string;
  /** Print the report as JSON on stdout instead of the table. */
  json?: boolean;
  /** Write the report as JSON to this file. */
  output?: string;
  html?: string;
  /** Write each run's JSONL trace into this folder (the studio's Eval tab opens them with the report). */
  traces?: string;
  /** Answer repeated model requests from the reply cache in the data dir (the CLI's default; `--no-cache` turns it off). */
  cache?: boolean;
  dataDir?: string;
  /** Keep the experiment in the data dir's SQLite store (the CLI's default; `--no-save` turns it off). */
  save?: boolean;
  /** Continue this stored experiment: finished trials are not run again. */
  resume?: string;
  /** Write the experiment as JUnit XML to this file. */
  junit?: string;
  /** The config whose agents a TypeScript suite names (default thinkflow.config.ts). */
  config?: string;
}

/** Where `thinkflow eval` writes: the command's io plus whether stderr is a terminal (a progress bar, or nothing). */
export interface EvalIo extends CommandIo {
  stderrIsTTY?: boolean;
}
