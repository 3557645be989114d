/**
 * Splits a byte stream into text lines (LF or CRLF), calling `onChunk` whenever bytes arrive so a
 * caller can reset an idle timeout. When `signal` fires, the pending read ends at once and the
 * signal's reason is thrown (not every fetch implementation errors a body that is between reads).
 * Cancels the stream if the consumer stops early, so the connection is released.
 */
export async function* readLines(
  body: ReadableStream<Uint8Array> | null,
  options: { onChunk?: () => void; signal?: AbortSignal } = {},
): AsyncGenerator<string, void, undefined> {
  if (!body) return;
  const { onChunk, signal } = options;
  const reader = body.getReader();
  const onAbort = () => {
    reader.cancel().catch(() => undefined);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const decoder = new TextDecoder();
  let buffer = '';
  let finished = false;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      onChunk?.();
      buffer += decoder.decode(value, { stream: true });
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      for (const part of parts) {
        // Lines already buffered must not outlive an abort either.
        signal?.throwIfAborted();
        yield part.endsWith('\r') ? part.slice(0, -1) : part;
      }
    }
    buffer += decoder.decode();
    if (buffer) yield buffer.endsWith('\r') ? buffer.slice(0, -1) : buffer;
    finished = true;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** One server-sent event: its `event:` name (if any) and its `data:` lines joined by newlines. */
export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * Groups SSE lines into events (per the WHATWG rules: blank line dispatches, `:` starts a comment).
 * Leniency: a line that is bare JSON (some servers forget the `data:` prefix, e.g. for errors) is
 * taken as data rather than silently dropped.
 */
export async function* sseEvents(lines: AsyncIterable<string>): AsyncGenerator<SseEvent, void, undefined> {
  let event: string | undefined;
  let data: string[] = [];
  for await (const line of lines) {
    if (line === '') {
      if (data.length > 0) yield { event, data: data.join('\n') };
      event = undefined;
      data = [];
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (line.trimStart().startsWith('{')) data.push(line);
  }
  if (data.length > 0) yield { event, data: data.join('\n') };
}

/** Reads a JSON value or returns undefined (callers turn that into a model_parse error naming the line). */
export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
