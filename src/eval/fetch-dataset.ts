import { ConfigError, errorMessage } from '../core/index.js';
import { type EvalItem, parseDataset } from './load-dataset.js';

/** Options of `fetchDataset`. */
export interface FetchDatasetOptions {
  /** A bearer token of the server (default: `THINKFLOW_TOKEN` in the environment, if set). */
  token?: string;
  /** A version other than the latest (`?version=N`). */
  version?: number;
  signal?: AbortSignal;
}

/**
 * Reads a dataset a thinkflow server keeps (`/v1/datasets/:id`, exported as JSONL) as experiment cases,
 * so CI runs the cases collected from production: each row's id names its case. A server that refuses
 * (unknown dataset, bad token, unreachable) is a `ConfigError` naming the URL and the reason.
 *
 * @example
 * const data = await fetchDataset('http://127.0.0.1:8787/v1/datasets/0193…', { version: 3 });
 * await runExperiment({ name: 'support', data, task: agent, scorers: [contains()] });
 */
export async function fetchDataset(url: string | URL, options: FetchDatasetOptions = {}): Promise<EvalItem[]> {
  const target = new URL(url);
  target.searchParams.set('format', 'jsonl');
  if (options.version !== undefined) target.searchParams.set('version', String(options.version));
  const token = options.token ?? (typeof process === 'undefined' ? undefined : process.env.THINKFLOW_TOKEN);
  let response: Response;
  try {
    response = await fetch(target, {
      headers: { accept: 'application/x-ndjson', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      signal: options.signal,
    });
  } catch (error) {
    throw new ConfigError({
      message: `Cannot fetch the dataset ${target.origin}${target.pathname}: ${errorMessage(error)}`,
    });
  }
  const text = await response.text();
  if (!response.ok) {
    let reason = `HTTP ${response.status}`;
    try {
      reason += `: ${(JSON.parse(text) as { error: { message: string } }).error.message}`;
    } catch {}
    throw new ConfigError({ message: `The server refused the dataset ${target.origin}${target.pathname}: ${reason}` });
  }
  // The rows are JSONL whatever the URL's last segment looks like.
  return parseDataset(text, `${target.origin}${target.pathname}.jsonl`);
}
