import { concatBytes } from '../core/index.js';

const encoder = new TextEncoder();

/** The marker a cut output ends with, naming how much was cut and the limit. */
export function cutMarker(cutBytes: number, limitBytes: number): string {
  return `\n[... output cut: ${cutBytes.toLocaleString('en-US')} more bytes over the limit of ${limitBytes.toLocaleString('en-US')} bytes (输出超过上限，已截断) ...]\n`;
}

/**
 * Output kept as it arrives: the first `limit` bytes, and a count of the rest. `text()` decodes what
 * was kept (a character split at the cut is dropped) and ends it with the cut marker when bytes were cut.
 */
export function outputCollector(limit: number) {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let total = 0;
  return {
    push(chunk: Uint8Array | string): void {
      const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
      total += bytes.length;
      if (kept >= limit) return;
      const part = bytes.length <= limit - kept ? bytes : bytes.subarray(0, limit - kept);
      chunks.push(part);
      kept += part.length;
    },
    /** Bytes seen in all, kept or not. */
    get total(): number {
      return total;
    },
    get cut(): boolean {
      return total > kept;
    },
    text(): string {
      // A fresh decoder: streaming mode drops a character split at the cut instead of printing U+FFFD.
      const body = new TextDecoder().decode(concatBytes(chunks, kept), { stream: total > kept });
      return total > kept ? body + cutMarker(total - kept, limit) : body;
    },
  };
}

/** A text cut to `limit` bytes of UTF-8, marked when it was cut. */
export function cutText(text: string, limit: number): string {
  const collector = outputCollector(limit);
  collector.push(text);
  return collector.text();
}
