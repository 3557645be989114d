import type { AgentEvent } from '../core/index.js';
import { nodeBuiltin, redactedJson } from '../core/index.js';

/** Appends events to a JSONL trace file. */
export interface TraceWriter {
  /** Queues one event as one JSON line, secrets redacted. Writing after `close()` is a no-op. */
  write(event: AgentEvent): void;
  /** Writes every queued line to the file now. */
  flush(): void;
  /** Flushes and closes the file. Safe to call twice. */
  close(): void;
}

/** Writers with unwritten lines, flushed if the process exits first (uncaught error, process.exit). */
const open = new Set<TraceWriter>();
let exitHook = false;

/**
 * Opens `path` for appending (creating its folder) and returns a writer that puts each event on its
 * own line, secrets (API keys, bearer tokens, `apiKey`/`authorization` fields) replaced by `[redacted]`.
 * Lines are written synchronously in batches: at the end of each turn of the event loop (so a run
 * that waits on a model shows up in the file as it goes), at `run_end` and `workflow_end`, on `close()` and when the
 * process exits — one system call per batch instead of one per event. A file is Node's (and Bun's,
 * Deno's): elsewhere, subscribe to the events with `onEvent` instead.
 *
 * @example
 * const trace = createTraceWriter('runs/today.jsonl');
 * await agent.run('2+2?', { onEvent: trace.write });
 * trace.close();
 */
export function createTraceWriter(path: string): TraceWriter {
  const feature = 'A trace file';
  const { closeSync, mkdirSync, openSync, writeSync } = nodeBuiltin('node:fs', feature);
  mkdirSync(nodeBuiltin('node:path', feature).dirname(path), { recursive: true });
  let fd: number | undefined = openSync(path, 'a');
  let pending: string[] = [];
  let scheduled = false;

  const writer: TraceWriter = {
    write(event) {
      if (fd === undefined) return;
      pending.push(`${redactedJson(event)}\n`);
      if (event.type === 'run_end' || event.type === 'workflow_end') return writer.flush();
      open.add(writer);
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          writer.flush();
        }).unref();
      }
    },
    flush() {
      open.delete(writer);
      if (fd === undefined || pending.length === 0) return;
      const bytes = new TextEncoder().encode(pending.join(''));
      pending = [];
      // A write may take fewer bytes than given: the rest follows, so no line is left cut off.
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    },
    close() {
      if (fd === undefined) return;
      writer.flush();
      closeSync(fd);
      fd = undefined;
    },
  };
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const w of [...open]) w.flush();
    });
  }
  return writer;
}
