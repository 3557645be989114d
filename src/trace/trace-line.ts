import { z } from 'zod';
import {
  type AgentEvent,
  ConfigError,
  errorMessage,
  isThinkflowError,
  nodeBuiltin,
  withoutBom,
} from '../core/index.js';

/**
 * One line of a JSONL trace: an `AgentEvent` as the loop emitted it. Lenient on purpose, so a trace
 * written by an older or newer thinkflow (with event types this one does not know) still reads.
 */
export const TraceLine = z.looseObject({
  type: z.string().min(1),
  runId: z.string().optional(),
  ts: z.number().optional(),
  step: z.number().optional(),
});
export type TraceLine = z.infer<typeof TraceLine>;

/**
 * Parses JSONL trace text into events. Blank lines are skipped; a bad line throws a `ConfigError`
 * naming `source` and the 1-based line number. A last line without its newline that is not JSON was cut
 * off while it was written (a full disk, a copy of a trace still being written): it is left out, and
 * the events before it are read.
 */
export function parseTrace(text: string, source = 'trace'): AgentEvent[] {
  const events: AgentEvent[] = [];
  const lines = withoutBom(text).split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (index === lines.length - 1) break; // the last line, with no newline after it: cut off
      throw badLine(source, index + 1, `not valid JSON (${errorMessage(error)})`, line);
    }
    const parsed = TraceLine.safeParse(value);
    if (!parsed.success) {
      throw badLine(source, index + 1, 'not an event: expected an object with a string "type"', line);
    }
    // The lenient schema checked the discriminant; the rest of the event is the loop's own JSON.
    events.push(parsed.data as unknown as AgentEvent);
  }
  return events;
}

/**
 * Reads a JSONL trace file (one `AgentEvent` per line) written by `traceFile` / `--trace`.
 *
 * @example
 * const events = readTrace('run.jsonl');
 * const end = events.find((e) => e.type === 'run_end');
 */
export function readTrace(path: string): AgentEvent[] {
  let text: string;
  try {
    text = nodeBuiltin('node:fs', 'Reading a trace file').readFileSync(path, 'utf8');
  } catch (error) {
    if (isThinkflowError(error)) throw error;
    throw new ConfigError({ message: `Cannot read trace file ${path}: ${errorMessage(error)}`, cause: error });
  }
  return parseTrace(text, path);
}

function badLine(source: string, line: number, what: string, text: string): ConfigError {
  const sample = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  return new ConfigError({
    message: `${source} line ${line}: ${what}: ${sample}. Each line of a trace must be one JSON event.`,
  });
}
