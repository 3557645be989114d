import {
  type Message,
  type ModelChunk,
  type ModelRequest,
  type ModelResponse,
  TOOL_NAME_RULES,
  type ToolNameRule,
  type ToolSpec,
  wireToolName,
} from '../../core/index.js';
import type { Model } from '../model.js';

/** Two-way map between the user's tool names and names the vendor API accepts, for one request. */
interface NameMap {
  toWire: Map<string, string>;
  fromWire: Map<string, string>;
}

/** The names in the request: its tools, and the calls in its history (routing may have dropped their tools since). */
function requestNames(request: ModelRequest): Set<string> {
  const names = new Set((request.tools ?? []).map((t: ToolSpec) => t.name));
  for (const t of request.promptTools ?? []) names.add(t.name);
  for (const m of request.messages) {
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) names.add(c.name);
    if (m.role === 'tool' && m.name) names.add(m.name);
  }
  return names;
}

function nameMap(request: ModelRequest, rule: ToolNameRule): NameMap | undefined {
  const names = requestNames(request);
  const unsafe = [...names].filter((name) => !rule.pattern.test(name));
  if (!unsafe.length) return undefined;
  const taken = new Set(names);
  const toWire = new Map<string, string>();
  const fromWire = new Map<string, string>();
  for (const name of unsafe) {
    let wire = wireToolName(name, rule);
    for (let i = 2; taken.has(wire); i++) wire = `${wire.slice(0, rule.maxLength - 4)}_${i}`;
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
    tools: request.tools?.map((t) => wireSpec(t, map)),
    promptTools: request.promptTools?.map((t) => wireSpec(t, map)),
  };
}

function wireSpec(spec: ToolSpec, map: NameMap): ToolSpec {
  const wire = map.toWire.get(spec.name);
  return wire === undefined ? spec : { ...spec, name: wire, description: `${spec.name}: ${spec.description}` };
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
 * Wraps a provider so any tool name (`搜索`, `github.create_issue`, `fs/read_file`) works: for the length
 * of one call, names the vendor's `rule` refuses go out as aliases it accepts (in `tools` and, for a
 * grammar-constrained local model, `promptTools`), and every tool call coming back (whole or streamed)
 * carries the user's name again. Requests whose names are already safe pass as they are.
 */
export function withWireToolNames(model: Model, rule: ToolNameRule = TOOL_NAME_RULES.openai): Model {
  return {
    id: model.id,
    capabilities: model.capabilities,
    contextWindow: model.contextWindow,
    async generate(request) {
      const map = nameMap(request, rule);
      if (!map) return model.generate(request);
      return userResponse(await model.generate(wireRequest(request, map)), map);
    },
    async *stream(request) {
      const map = nameMap(request, rule);
      if (!map) {
        yield* model.stream(request);
        return;
      }
      for await (const chunk of model.stream(wireRequest(request, map))) yield userChunk(chunk, map);
    },
  };
}
