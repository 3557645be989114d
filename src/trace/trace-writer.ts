import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AgentEvent } from '../core/index.js';
import { redactSecrets } from './redact-secrets.js';

/** Appends events to a JSONL trace file. */
export interface TraceWriter {
  /** Writes one event as one JSON line, secrets redacted. Writing after `close()` is a no-op. */
  write(event: AgentEvent): void;
  /** Closes the file. Safe to call twice. */
  close(): void;
}

/**
 * Opens `path` for appending (creating its folder) and returns a writer that puts each event on
 * its own line. Writes are synchronous so a crash never loses events already emitted, and secrets
 * (API keys, bearer tokens, `apiKey`/`authorization` fields) are replaced by `[redacted]`.
 *
 * @example
 * const trace = createTraceWriter('runs/today.jsonl');
 * await agent.run('2+2?', { onEvent: trace.write });
 * trace.close();
 */
export function createTraceWriter(path: string): TraceWriter {
  mkdirSync(dirname(path), { recursive: true });
  let fd: number | undefined = openSync(path, 'a');
  return {
    write(event) {
      if (fd === undefined) return;
      writeSync(fd, `${JSON.stringify(redactSecrets(event))}\n`);
    },
    close() {
      if (fd === undefined) return;
      closeSync(fd);
      fd = undefined;
    },
  };
}
