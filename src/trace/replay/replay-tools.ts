import { type AgentEvent, type EventOf, stableJson, type ToolSpec } from '../../core/index.js';
import type { AnyTool } from '../../tools/index.js';

interface RecordedCall {
  input: unknown;
  key: string;
  ok: boolean;
  output: string;
  error?: string;
  used: boolean;
}

export interface ReplayToolsOptions {
  /** The real tools, whose names, descriptions, schemas and validation the replayed ones keep. */
  tools?: readonly AnyTool[];
}

/**
 * Tools that answer from a trace instead of running: each call returns the recorded output of the
 * same tool with the same input (or, failing that, the tool's next recorded call), and a recorded
 * failure is thrown again so the executor reports it the same way. Use with `replayModel` to re-run
 * a trace with no side effects.
 *
 * @example
 * const events = readTrace('run.jsonl');
 * const agent = new Agent({ model: replayModel(events), tools: replayTools(events, { tools: realTools }) });
 */
export function replayTools(trace: readonly AgentEvent[], options: ReplayToolsOptions = {}): AnyTool[] {
  const start = trace.find((e): e is EventOf<'run_start'> => e.type === 'run_start' && !e.parentRunId);
  const rootId = start?.runId ?? trace[0]?.runId;
  const own = trace.filter((e) => e.runId === rootId);
  const calls = recordedCalls(own);
  const specs = recordedSpecs(own);
  const real = new Map((options.tools ?? []).map((t) => [t.name, t]));
  const names = new Set([...(start?.tools ?? []), ...calls.keys()]);
  return [...names].map((name) => {
    const tool = real.get(name);
    const spec = specs.get(name);
    const queue = calls.get(name) ?? [];
    return {
      name,
      description: tool?.description ?? spec?.description ?? `${name} (replayed from a trace)`,
      parameters: tool?.parameters ?? spec?.parameters ?? { type: 'object' },
      parse: tool ? (input: unknown) => tool.parse(input) : (input: unknown) => ({ ok: true as const, value: input }),
      run(input: unknown) {
        const key = stableJson(input);
        const found = queue.find((c) => !c.used && c.key === key) ?? queue.find((c) => !c.used);
        if (!found) throw new Error(`No recorded output left for tool ${name} in the trace.`);
        found.used = true;
        if (!found.ok) throw new Error(found.error ?? found.output);
        return found.output;
      },
    } satisfies AnyTool;
  });
}

function recordedCalls(events: readonly AgentEvent[]): Map<string, RecordedCall[]> {
  const inputs = new Map<string, unknown>();
  const out = new Map<string, RecordedCall[]>();
  for (const event of events) {
    if (event.type === 'tool_start') inputs.set(event.callId, event.input);
    if (event.type !== 'tool_end') continue;
    const input = inputs.get(event.callId);
    const list = out.get(event.tool) ?? [];
    list.push({ input, key: stableJson(input), ok: event.ok, output: event.output, error: event.error, used: false });
    out.set(event.tool, list);
  }
  return out;
}

function recordedSpecs(events: readonly AgentEvent[]): Map<string, ToolSpec> {
  const out = new Map<string, ToolSpec>();
  for (const event of events) {
    if (event.type !== 'model_request') continue;
    for (const spec of event.tools ?? []) if (!out.has(spec.name)) out.set(spec.name, spec);
  }
  return out;
}
