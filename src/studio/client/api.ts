/** Where the bearer token lives between visits (this browser only; never rendered). */
const TOKEN_KEY = 'thinkflow.studio.token';

/** Thrown when the API wants a token: the page then asks for one. */
export class NeedsToken extends Error {}

/** The token the page sends, if the person gave one. */
export function token(): string | undefined {
  return localStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function setToken(value: string): void {
  localStorage.setItem(TOKEN_KEY, value);
}

/**
 * Keeps the token of the URL `thinkflow studio` printed (`/studio?token=…`) and takes it out of the
 * address bar, so it is not in the history, a bookmark or a shared screenshot.
 */
export function adoptUrlToken(): void {
  const params = new URLSearchParams(location.search);
  const value = params.get('token');
  if (!value) return;
  setToken(value);
  params.delete('token');
  const rest = params.toString();
  history.replaceState(null, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const t = token();
  return t ? { ...extra, Authorization: `Bearer ${t}` } : extra;
}

/**
 * Calls the JSON API with the bearer token; a 401 throws `NeedsToken`, other errors their JSON message.
 * `body` goes as JSON, `jsonl` as it is (a trace).
 */
export async function api<T>(path: string, init: { method?: string; body?: unknown; jsonl?: string } = {}): Promise<T> {
  const type = init.jsonl !== undefined ? 'application/x-ndjson' : init.body !== undefined ? 'application/json' : '';
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    headers: headers(type ? { 'Content-Type': type } : {}),
    body: init.jsonl ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  if (response.status === 401) throw new NeedsToken('A token is needed.');
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
    throw new Error(body.error?.message ?? `${response.status} ${response.statusText}`);
  }
  return (await response.json()) as T;
}

/** Fetches a path as text with the token (the JSONL trace download). */
export async function apiText(path: string): Promise<string> {
  const response = await fetch(path, { headers: headers() });
  if (response.status === 401) throw new NeedsToken('A token is needed.');
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  return response.text();
}

/** One server-sent event of the run stream. */
export interface StreamedEvent {
  seq: number;
  event: { type: string; runId: string; parentRunId?: string; [key: string]: unknown };
}

/**
 * Follows a run's SSE stream with fetch rather than EventSource, because EventSource cannot send the
 * Authorization header. After a dropped connection it reconnects with `Last-Event-ID`, so no event is
 * seen twice or lost. Ends after the run's own `run_end` or when `signal` aborts.
 */
export async function followRun(
  id: string,
  onEvent: (e: StreamedEvent) => void,
  signal: AbortSignal,
  after = 0,
): Promise<void> {
  let last = after;
  while (!signal.aborted) {
    try {
      const read = await readEvents(`/v1/runs/${encodeURIComponent(id)}/events`, {
        after: last,
        signal,
        onEvent,
        stop: (event) => event.type === 'run_end' && !event.parentRunId,
      });
      last = read.last;
      if (read.stopped) return;
    } catch (error) {
      if (error instanceof NeedsToken || signal.aborted) throw error;
    }
    // The stream closed before run_end: wait a moment and pick up after the last event seen.
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * Reads a workflow run's SSE stream after event `after` until the server ends it (once the run has
 * ended or suspended, or when the connection drops); resolves with the last event number seen.
 */
export async function followWorkflowRun(id: string, reading: EventReading): Promise<number> {
  return (await readEvents(`/v1/workflows/runs/${encodeURIComponent(id)}/events`, reading)).last;
}

/** One connection to an event stream: each event after `after` goes to `onEvent`, until the stream or `stop` ends it. */
/** Where an event stream is read from (after event `after`), until when, and who hears each event. */
export interface EventReading {
  after: number;
  signal: AbortSignal;
  onEvent: (e: StreamedEvent) => void;
}

async function readEvents(
  path: string,
  options: EventReading & { stop?: (event: StreamedEvent['event']) => boolean },
): Promise<{ last: number; stopped: boolean }> {
  let last = options.after;
  const response = await fetch(path, {
    headers: headers({ Accept: 'text/event-stream', 'Last-Event-ID': String(last) }),
    signal: options.signal,
  });
  if (response.status === 401) throw new NeedsToken('A token is needed.');
  if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { last, stopped: false };
    buffer += value;
    let cut = buffer.indexOf('\n\n');
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      cut = buffer.indexOf('\n\n');
      const parsed = parseBlock(block);
      if (!parsed || parsed.seq <= last) continue;
      last = parsed.seq;
      options.onEvent(parsed);
      if (options.stop?.(parsed.event)) return { last, stopped: true };
    }
  }
}

function parseBlock(block: string): StreamedEvent | undefined {
  let id: string | undefined;
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('id:')) id = line.slice(3).trim();
    else if (line.startsWith('data:')) data += line.slice(5).replace(/^ /, '');
  }
  if (id === undefined || !data) return undefined;
  return { seq: Number(id), event: JSON.parse(data) };
}
