import type { Message, ModelChunk, ModelRequest, ModelResponse, ToolSpec } from '../../core/index.js';
import type { Model } from '../model.js';

/** What OpenAI, Anthropic, Gemini and Ollama accept as a function name. */
const WIRE_SAFE = /^[a-zA-Z0-9_-]{1,64}$/;

/** FNV-1a, 32 bits, in base 36: a short stable suffix that keeps mapped names apart. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (const ch of text) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

/** Two-way map between the user's tool names and names the vendor API accepts, for one request. */
interface NameMap {
  toWire: Map<string, string>;
  fromWire: Map<string, string>;
}

/** The names in the request: its tools, and the calls in its history (routing may have dropped their tools since). */
function requestNames(request: ModelRequest): Set<string> {
  const names = new Set((request.tools ?? []).map((t: ToolSpec) => t.name));
  for (const m of request.messages) {
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) names.add(c.name);
    if (m.role === 'tool' && m.name) names.add(m.name);
  }
  return names;
}

function nameMap(request: ModelRequest): NameMap | undefined {
  const names = requestNames(request);
  const unsafe = [...names].filter((name) => !WIRE_SAFE.test(name));
  if (!unsafe.length) return undefined;
  const taken = new Set(names);
  const toWire = new Map<string, string>();
  const fromWire = new Map<string, string>();
  for (const name of unsafe) {
    // The name's own ASCII letters and digits stay readable ("get_天气" → "get_…"), the hash keeps it unique.
    const ascii = name.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
    const suffix = hash(name);
    let wire = `${(ascii || 'tool').slice(0, 63 - suffix.length)}_${suffix}`;
    for (let i = 2; taken.has(wire); i++) wire = `${wire.slice(0, 60)}_${i}`;
    taken.add(wire);
    toWire.set(name, wire);
    fromWire.set(wire, name);
  }
  return { toWire, fromWire };
}

const rename = (map: Map<string, string>, name: string) => map.get(name) ?? name;

function wireMessages(messages: Message[], map: NameMap): Message[] {
  return messages.map((m) => {
    if (m.role === 'assistant' && m.toolCalls?.length) {
      return { ...m, toolCalls: m.toolCalls.map((c) => ({ ...c, name: rename(map.toWire, c.name) })) };
    }
    if (m.role === 'tool' && m.name) return { ...m, name: rename(map.toWire, m.name) };
    return m;
  });
}

function wireRequest(request: ModelRequest, map: NameMap): ModelRequest {
  return {
    ...request,
    messages: wireMessages(request.messages, map),
    // The model still reads the real name at the head of the description.
    tools: request.tools?.map((t) =>
      map.toWire.has(t.name)
        ? { ...t, name: rename(map.toWire, t.name), description: `${t.name}: ${t.description}` }
        : t,
    ),
  };
}

function userResponse(response: ModelResponse, map: NameMap): ModelResponse {
  if (!response.toolCalls?.length) return response;
  return { ...response, toolCalls: response.toolCalls.map((c) => ({ ...c, name: rename(map.fromWire, c.name) })) };
}

function userChunk(chunk: ModelChunk, map: NameMap): ModelChunk {
  if (chunk.type === 'tool_call_delta' && chunk.name) return { ...chunk, name: rename(map.fromWire, chunk.name) };
  if (chunk.type === 'response') return { ...chunk, response: userResponse(chunk.response, map) };
  return chunk;
}

/**
 * Wraps a native-tools provider so tool names with any Unicode letters (`搜索`, `天気`) work: for the
 * length of one call they go out as ASCII names the vendor accepts, and every tool call coming back
 * (whole or streamed) carries the user's name again. Requests whose names are already safe pass as they are.
 */
export function withWireToolNames(model: Model): Model {
  return {
    id: model.id,
    capabilities: model.capabilities,
    contextWindow: model.contextWindow,
    async generate(request) {
      const map = nameMap(request);
      if (!map) return model.generate(request);
      return userResponse(await model.generate(wireRequest(request, map)), map);
    },
    async *stream(request) {
      const map = nameMap(request);
      if (!map) {
        yield* model.stream(request);
        return;
      }
      for await (const chunk of model.stream(wireRequest(request, map))) yield userChunk(chunk, map);
    },
  };
}
