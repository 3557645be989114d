import { processEnv } from '../../../core/index.js';

/**
 * True when an Ollama server answers at `host` (default `$OLLAMA_HOST` or `http://127.0.0.1:11434`)
 * within `timeoutMs`. Never throws: any failure means "not available".
 */
export async function ollamaAvailable(
  host: string = processEnv().OLLAMA_HOST ?? 'http://127.0.0.1:11434',
  timeoutMs = 1000,
): Promise<boolean> {
  const base = /^https?:\/\//.test(host) ? host : `http://${host}`;
  try {
    const response = await fetch(new URL('/api/version', base), { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
