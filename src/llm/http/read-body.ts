import type { HttpResponse } from './fetch-with-retry.js';
import { parseError } from './model-errors.js';
import { readLines, tryParseJson } from './sse-lines.js';

/** Reads a whole JSON body under the request's timeout and signal; bad JSON is a `model_parse` ModelError. */
export async function readJson(http: HttpResponse, provider: string): Promise<unknown> {
  let text: string;
  try {
    text = await http.response.text();
  } catch (error) {
    throw http.fail(error);
  } finally {
    http.done();
  }
  const parsed = tryParseJson(text);
  if (!parsed.ok) throw parseError(provider, 'a response body that is not JSON', text);
  return parsed.value;
}

/**
 * The body's lines. Each arriving chunk restarts the idle timeout; an abort, timeout or dropped
 * connection while reading becomes a ModelError, and the request is released however the loop ends.
 */
export async function* responseLines(http: HttpResponse): AsyncGenerator<string, void, undefined> {
  try {
    yield* readLines(http.response.body, { onChunk: http.touch, signal: http.signal });
  } catch (error) {
    throw http.fail(error);
  } finally {
    http.done();
  }
}
