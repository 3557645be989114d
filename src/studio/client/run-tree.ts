/** An event as the page sees it: the loop's JSON, read loosely (traces may come from other versions). */
export type LooseEvent = { type: string; runId: string; parentRunId?: string; ts?: number; step?: number } & Record<
  string,
  unknown
>;

/** One line inside a step, in the order it happened. */
export type StepItem =
  | { kind: 'thought'; text: string }
  | { kind: 'tool'; callId: string; tool: string; input: unknown; output?: string; ok?: boolean; ms?: number }
  | { kind: 'observation'; text: string }
  | { kind: 'warning'; text: string }
  | { kind: 'invalid'; text: string }
  | { kind: 'approval'; callId: string; tool: string; input: unknown; question?: string; answered?: string }
  | { kind: 'handoff'; text: string }
  | { kind: 'final'; text: string }
  | { kind: 'child'; run: RunNode };

/** One step of one run: its items, the model call's time, tokens and cost, and the raw request/response. */
export interface StepNode {
  step: number;
  items: StepItem[];
  ms?: number;
  tokens?: number;
  request?: unknown;
  response?: unknown;
}

/** One run (the root or a nested agent) as a tree of steps. */
export interface RunNode {
  runId: string;
  agent?: string;
  model?: string;
  input?: string;
  steps: StepNode[];
  /** The answer so far: streamed deltas, then the final answer. */
  answer: string;
  status?: string;
  durationMs?: number;
  /** US dollars for the whole run, from `run_end` (the price table stays on the server, out of the page). */
  costUsd?: number;
  error?: string;
}

/** Builds run trees from events, one event at a time, so the live view and a trace file share one code path. */
export interface TreeBuilder {
  add(event: LooseEvent): void;
  root(): RunNode | undefined;
}

export function treeBuilder(): TreeBuilder {
  const runs = new Map<string, RunNode>();
  let rootId: string | undefined;
  const run = (event: LooseEvent): RunNode => {
    let node = runs.get(event.runId);
    if (!node) {
      node = { runId: event.runId, steps: [], answer: '' };
      runs.set(event.runId, node);
      if (event.parentRunId && runs.has(event.parentRunId)) {
        // A nested agent hangs under the step its caller was in.
        lastStep(runs.get(event.parentRunId) as RunNode).items.push({ kind: 'child', run: node });
      } else rootId ??= event.runId;
    }
    return node;
  };
  const stepOf = (node: RunNode, n: number | undefined): StepNode => {
    if (n === undefined) return lastStep(node);
    let step = node.steps.find((s) => s.step === n);
    if (!step) {
      step = { step: n, items: [] };
      node.steps.push(step);
    }
    return step;
  };
  const approvals: Extract<StepItem, { kind: 'approval' }>[] = [];
  return {
    root: () => (rootId ? runs.get(rootId) : undefined),
    add(e) {
      const node = run(e);
      const s = (n = e.step) => stepOf(node, n);
      switch (e.type) {
        case 'run_start':
          node.agent = e.agent as string | undefined;
          node.model = e.model as string;
          node.input = e.input as string;
          node.status = 'running';
          break;
        case 'step_start':
          s();
          break;
        case 'model_request':
          s().request = { model: e.model, messages: e.messages, tools: e.tools };
          node.answer = '';
          break;
        case 'model_delta':
          node.answer += e.text as string;
          break;
        case 'model_response': {
          const step = s();
          const usage = e.usage as { promptTokens: number; completionTokens: number } | undefined;
          step.ms = e.ms as number;
          step.response = { text: e.text, toolCalls: e.toolCalls, usage, modelId: e.modelId };
          if (usage) {
            step.tokens = usage.promptTokens + usage.completionTokens;
          }
          break;
        }
        case 'thought':
        case 'reflection':
          s().items.push({ kind: 'thought', text: e.text as string });
          break;
        case 'tool_start':
          s().items.push({ kind: 'tool', callId: e.callId as string, tool: e.tool as string, input: e.input });
          break;
        case 'tool_end': {
          const call = s().items.find((i) => i.kind === 'tool' && i.callId === e.callId);
          if (call && call.kind === 'tool') Object.assign(call, { output: e.output, ok: e.ok, ms: e.ms });
          break;
        }
        case 'observation':
          s().items.push({ kind: 'observation', text: e.text as string });
          break;
        case 'warning':
          s().items.push({ kind: 'warning', text: `${e.code}: ${e.message}` });
          break;
        case 'invalid_output':
          s().items.push({ kind: 'invalid', text: e.reason as string });
          break;
        case 'approval_request': {
          const item = {
            kind: 'approval' as const,
            callId: e.callId as string,
            tool: e.tool as string,
            input: e.input,
            question: e.question as string | undefined,
          };
          s().items.push(item);
          approvals.push(item);
          break;
        }
        case 'approval_response': {
          const asked = approvals.find((a) => a.callId === e.callId);
          if (asked) asked.answered = e.answer !== undefined ? String(e.answer) : e.approved ? 'approved' : 'denied';
          break;
        }
        case 'handoff':
          s().items.push({ kind: 'handoff', text: `handoff to ${e.to}${e.reason ? `: ${e.reason}` : ''}` });
          break;
        case 'final':
          s().items.push({ kind: 'final', text: e.output as string });
          node.answer = e.output as string;
          break;
        case 'run_end': {
          node.status = e.status as string;
          node.durationMs = e.durationMs as number;
          node.costUsd = (e.usage as { costUsd?: number } | undefined)?.costUsd;
          const error = e.error as { message?: string } | undefined;
          if (error?.message) node.error = error.message;
          if (e.output) node.answer = e.output as string;
          break;
        }
      }
    },
  };
}

function lastStep(node: RunNode): StepNode {
  if (node.steps.length === 0) node.steps.push({ step: 0, items: [] });
  return node.steps[node.steps.length - 1];
}
