/**
 * The long-task fixture (issue 41): 60 documents of about 2,000 tokens, each holding one fact (its
 * code) at the start or in the middle, served by a `read_document` tool; a local OpenAI-compatible
 * chat-completions server whose model is a scripted oracle; and the server's accounting of prompt
 * tokens and cached tokens (a request's leading messages equal to the previous request's, with the
 * same tools, count as cached, as providers' prefix caches do).
 *
 * The oracle sees only the request in front of it. Like a careful model it notes, in the text of its
 * next tool-call turn, what the latest result said ("Noted: doc-7 code is 4242."). When a result it
 * must read was cut or cleared and the request offers `recall_result`, it makes the call the marker
 * names (call id and offset), or recalls the first read's result by its call id. A
 * request with no tools is a summary request: it answers with every fact it can see. Once every
 * document is read it answers with the sum of the codes it can see (a missing one counts 0).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countTokens } from 'gpt-tokenizer';

export const DOCUMENTS = 60;
export type FactPlace = 'start' | 'middle';

const WORDS =
  'the council report notes river traffic budget harbour school district survey office annual growth water supply road repair museum visitors library hours market prices station timetable park maintenance bridge inspection tenant housing permit zoning ferry airport tram cycle lane canal dock warehouse factory energy grid solar wind tariff census birth rate clinic hospital nurse staff pension tax levy grant audit court ruling appeal police patrol fire drill flood barrier storm drain sewer waste recycling compost landfill noise complaint festival concert theatre cinema stadium league match season harvest orchard vineyard dairy cattle forest trail hiking camp lake beach coast lighthouse fishing quota'.split(
    ' ',
  );

/** The code document `k` holds (deterministic). */
export function codeOf(k: number): number {
  return 1000 + ((k * 7919) % 9000);
}

/** The right answer: the sum of all codes. */
export function expectedSum(documents = DOCUMENTS): number {
  let sum = 0;
  for (let k = 1; k <= documents; k++) sum += codeOf(k);
  return sum;
}

/** Document `k`: about 2,000 tokens of filler with its fact at the start or in the middle. */
export function documentText(k: number, place: FactPlace): string {
  let seed = k * 2654435761;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed >>> 16;
  };
  // Each document draws on its own 24 words, so no two read alike (as real documents do not).
  const own = Array.from({ length: 24 }, () => WORDS[next() % WORDS.length]);
  let filler = '';
  // Figures between the words, as reports have: about 4 characters per token, as English prose.
  while (filler.length < 8_000) {
    filler += `${own[next() % own.length]} ${own[next() % own.length]} ${own[next() % own.length]} ${next() % 100}, `;
  }
  const fact = ` The doc-${k} code is ${codeOf(k)}. `;
  const header = `Document doc-${k}.`;
  if (place === 'start') return `${header}${fact}${filler}`;
  const middle = Math.floor(filler.length / 2);
  return `${header} ${filler.slice(0, middle)}${fact}${filler.slice(middle)}`;
}

/** The question every framework is asked. */
export const QUESTION = `Read the documents doc-1 to doc-${DOCUMENTS} with read_document, one call each, in order. Then answer: what is the sum of their codes?`;

interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

interface WireRequest {
  messages: WireMessage[];
  tools?: { function: { name: string } }[];
  stream?: boolean;
}

const FACT = /doc-(\d+) code is (\d+)/g;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  return '';
}

/** What the oracle replies: a tool call (with its note) or text. */
export interface OracleReply {
  text: string;
  call?: { name: string; arguments: Record<string, unknown> };
}

/** The oracle: decides from the request alone. */
export function oracle(request: WireRequest): OracleReply {
  const known = new Map<number, number>();
  const read = new Set<number>();
  const callDoc = new Map<string, number>();
  for (const m of request.messages) {
    for (const [, k, code] of textOf(m.content).matchAll(FACT)) known.set(Number(k), Number(code));
    for (const c of m.tool_calls ?? []) {
      const args = safeJson(c.function.arguments);
      const doc = Number(/doc-(\d+)/.exec(String(args.id ?? ''))?.[1]);
      if (c.function.name === 'read_document' && doc) {
        read.add(doc);
        callDoc.set(c.id, doc);
      }
      if (c.function.name === 'recall_result' && typeof args.callId === 'string') {
        const recalled = callDoc.get(args.callId);
        if (recalled) callDoc.set(c.id, recalled);
      }
    }
  }
  for (const k of known.keys()) read.add(k);
  const tools = new Set((request.tools ?? []).map((t) => t.function.name));
  if (tools.size === 0) {
    const facts = [...known].sort((a, b) => a[0] - b[0]).map(([k, code]) => `doc-${k} code is ${code}`);
    return { text: `Documents read so far. Facts: ${facts.join('; ')}.` };
  }
  const last = request.messages.at(-1);
  let note = '';
  if (last?.role === 'tool' && last.tool_call_id) {
    const doc = callDoc.get(last.tool_call_id);
    const fact = doc === undefined ? undefined : known.get(doc);
    if (doc !== undefined && fact === undefined && tools.has('recall_result')) {
      // The call the cut marker (or a page's next-part note) names; else the whole result of the first read.
      const named = /recall_result (\{[^}]*\})/.exec(textOf(last.content))?.[1];
      const firstCall = [...callDoc].find(([, d]) => d === doc)?.[0] ?? last.tool_call_id;
      return {
        text: `doc-${doc} was cut before its code; recalling it.`,
        call: { name: 'recall_result', arguments: named ? safeJson(named) : { callId: firstCall } },
      };
    }
    note = fact === undefined ? `doc-${doc} shows no code.` : `Noted: doc-${doc} code is ${fact}.`;
  }
  for (let k = 1; k <= DOCUMENTS; k++) {
    if (!read.has(k)) return { text: note, call: { name: 'read_document', arguments: { id: `doc-${k}` } } };
  }
  let sum = 0;
  for (let k = 1; k <= DOCUMENTS; k++) sum += known.get(k) ?? 0;
  return { text: `${note} The sum of the codes is ${sum}.`.trim() };
}

function safeJson(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

/** One request as the server counted it. */
export interface CountedRequest {
  promptTokens: number;
  cachedTokens: number;
  tools: string[];
  messages: WireMessage[];
}

export interface LongTaskServer {
  /** `http://127.0.0.1:PORT/v1` */
  baseURL: string;
  requests: CountedRequest[];
  reset(): void;
  close(): Promise<void>;
}

/**
 * Starts the oracle behind a real OpenAI chat-completions endpoint on 127.0.0.1. Usage reports
 * `prompt_tokens` (o200k tokens of each message's text and tool calls, plus 4 per message, plus the
 * tools) and `prompt_tokens_details.cached_tokens`: the tokens of the leading messages (and tools)
 * that the previous request also started with, byte for byte.
 */
export async function startLongTaskServer(): Promise<LongTaskServer> {
  const requests: CountedRequest[] = [];
  const counts = new Map<string, number>();
  // A prefix cache per tool set: the agent's requests and a summarizer's (no tools) do not evict each other.
  const previous = new Map<string, string[]>();
  let seq = 0;
  const tokens = (key: string, text: string) => {
    let n = counts.get(key);
    if (n === undefined) {
      n = 4 + countTokens(text);
      counts.set(key, n);
    }
    return n;
  };
  const server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as WireRequest;
    const parts = [JSON.stringify(body.tools ?? []), ...body.messages.map((m) => JSON.stringify(m))];
    const sizes = parts.map((p, i) =>
      i === 0
        ? tokens(p, p)
        : tokens(
            p,
            `${textOf(body.messages[i - 1].content)}${(body.messages[i - 1].tool_calls ?? []).map((c) => c.function.name + c.function.arguments).join('')}`,
          ),
    );
    const before = previous.get(parts[0]) ?? [];
    let same = 0;
    while (same < parts.length && same < before.length && parts[same] === before[same]) same++;
    const promptTokens = sizes.reduce((a, b) => a + b, 0);
    const cachedTokens = sizes.slice(0, same).reduce((a, b) => a + b, 0);
    previous.set(parts[0], parts);
    requests.push({
      promptTokens,
      cachedTokens,
      tools: (body.tools ?? []).map((t) => t.function.name),
      messages: body.messages,
    });
    const reply = oracle(body);
    const id = `call_${++seq}`;
    const message = {
      role: 'assistant',
      content: reply.text || null,
      ...(reply.call
        ? {
            tool_calls: [
              {
                id,
                type: 'function',
                function: { name: reply.call.name, arguments: JSON.stringify(reply.call.arguments) },
              },
            ],
          }
        : {}),
    };
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: 20,
      total_tokens: promptTokens + 20,
      prompt_tokens_details: { cached_tokens: cachedTokens },
    };
    const finish = reply.call ? 'tool_calls' : 'stop';
    if (body.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: unknown, finishReason: string | null, extra: object = {}) =>
        `data: ${JSON.stringify({ id: `chatcmpl-${seq}`, object: 'chat.completion.chunk', created: 1, model: 'oracle', choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`;
      const delta = reply.call
        ? { role: 'assistant', content: reply.text || null, tool_calls: [{ index: 0, ...message.tool_calls![0] }] }
        : { role: 'assistant', content: reply.text };
      res.write(chunk(delta, null));
      res.write(chunk({}, finish, { usage }));
      res.end('data: [DONE]\n\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: `chatcmpl-${seq}`,
        object: 'chat.completion',
        created: 1,
        model: 'oracle',
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    reset() {
      requests.length = 0;
      previous.clear();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
  });
}
