import { ConfigError, redactText } from '../../core/index.js';

/** Joins a base URL and a path, failing early with a ConfigError when the base is not an http(s) URL. */
export function endpoint(baseURL: string, path: string, provider: string): string {
  const url = `${baseURL.trim().replace(/\/+$/, '')}${path}`;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new ConfigError({
      message: `${provider}: baseURL "${redactText(baseURL)}" is not an http(s) URL. Use e.g. http://127.0.0.1:8080/v1.`,
    });
  }
  return url;
}
