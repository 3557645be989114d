import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Words that mean the same thing get the same dimension, so vectors find what BM25 cannot. */
const CONCEPTS = [
  ['car', 'automobile', 'vehicle', 'sedan'],
  ['doctor', 'physician', 'medic'],
  ['happy', 'joyful', 'glad', 'cheerful'],
  ['buy', 'purchase', 'acquire'],
];
const DIMS = 32;

/** A deterministic toy embedding: one dimension per concept, the other words hashed into the rest. */
export function toyEmbedding(text: string): number[] {
  const vector = new Array<number>(DIMS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const concept = CONCEPTS.findIndex((group) => group.includes(word));
    if (concept >= 0) vector[concept] += 1;
    else {
      let h = 0;
      for (const c of word) h = (h * 31 + c.charCodeAt(0)) >>> 0;
      vector[CONCEPTS.length + (h % (DIMS - CONCEPTS.length))] += 0.2;
    }
  }
  return vector;
}

export interface EmbeddingServer {
  url: string;
  /** Every request body received, and its Authorization header. */
  requests: { path: string; body: { model: string; input: string[] }; authorization?: string }[];
  /** Answer the next request with this status and body instead. */
  failNext(status: number, body: unknown): void;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<{ model: string; input: string[] | string }> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text);
}

/**
 * A real HTTP server on 127.0.0.1 speaking OpenAI's `POST /v1/embeddings` and Ollama's
 * `POST /api/embed` wire formats, answering with toy embeddings.
 */
export async function startEmbeddingServer(): Promise<EmbeddingServer> {
  const requests: EmbeddingServer['requests'] = [];
  let failure: { status: number; body: unknown } | undefined;
  const server: Server = createServer(async (req, res) => {
    const raw = await readJson(req);
    const input = Array.isArray(raw.input) ? raw.input : [raw.input];
    requests.push({ path: req.url ?? '', body: { model: raw.model, input }, authorization: req.headers.authorization });
    res.setHeader('content-type', 'application/json');
    if (failure) {
      res.statusCode = failure.status;
      res.end(JSON.stringify(failure.body));
      failure = undefined;
      return;
    }
    if (req.url === '/v1/embeddings') {
      // OpenAI may return data out of order; each item carries its index.
      const data = input
        .map((text, index) => ({ object: 'embedding', index, embedding: toyEmbedding(text) }))
        .reverse();
      res.end(JSON.stringify({ object: 'list', data, model: raw.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
    } else if (req.url === '/api/embed') {
      res.end(JSON.stringify({ model: raw.model, embeddings: input.map(toyEmbedding), total_duration: 1000 }));
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: 'not found' }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(status, body) {
      failure = { status, body };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
