import { type AgentEvent, plural } from '../../core/index.js';
// Through the trace index like any module: the bundle keeps only `costOf` and its price table, as the
// package has no side effects and the build leaves the index's Node-only imports out (a test checks).
import { costOf } from '../../llm/index.js';
import { traceRuns } from '../../trace/index.js';

/** An event as the page sees it: the loop's JSON, read loosely (traces may come from other versions). */
export type LooseEvent = { type: string; runId: string; parentRunId?: string; ts?: number; step?: number } & Record<
  string,
  unknown
>;

/** One line inside a step, in the order it happened. */
export type StepItem =
  | { kind: 'thought'; text: string }
  | {
      kind: 'tool';
      callId: string;
      tool: string;
      input: unknown;
      output?: string;
      ok?: boolean;
      ms?: number;
      /** Calls made from inside this one (a code-mode program's tools), in order. */
      calls?: StepItem[];
      /** The files this call changed in the workspace, as a short line diff. */
      diff?: string;
    }
  | { kind: 'observation'; text: string }
  | { kind: 'warning'; text: string }
  | { kind: 'invalid'; text: string }
  | { kind: 'approval'; callId: string; tool: string; input: unknown; question?: string; answered?: string }
  | { kind: 'handoff'; text: string }
  | { kind: 'compact'; text: string }
  | { kind: 'final'; text: string }
  | { kind: 'plan'; text: string }
  | { kind: 'child'; run: RunNode };

/** One step of one run: its items, the model calls' time, tokens and cost, and the raw request/response. */
export interface StepNode {
  step: number;
  items: StepItem[];
  ms?: number;
  tokens?: number;
  /** US dollars for this step's model calls; unset when the model has no known price. */
  costUsd?: number;
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
  /** US dollars for the whole run, from `run_end` (the server's total, which also knows prices registered there). */
  costUsd?: number;
  error?: string;
  /** The workspace's files this run changed, by path: how each stands now and the step that last changed it. */
  files?: Record<string, { status: 'added' | 'modified' | 'removed'; step?: number }>;
}

/** The events of JSONL trace text, blank lines skipped; a line that is not JSON throws, naming its number. */
export function traceEvents(text: string): LooseEvent[] {
  const events: LooseEvent[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line) as LooseEvent);
    } catch (error) {
      throw new Error(`line ${index + 1}: ${(error as Error).message}`);
    }
  }
  return events;
}

/**
 * The runs of JSONL trace text, each with its events: a file `--trace` wrote several runs to holds them
 * one after the other (`traceRuns`). A line that is not JSON throws, as in `traceEvents`.
 */
export function traceFileRuns(text: string): LooseEvent[][] {
  return traceRuns(traceEvents(text) as unknown as AgentEvent[]) as unknown as LooseEvent[][];
}

/** The tree of a whole trace. */
export function treeOf(events: readonly LooseEvent[]): RunNode | undefined {
  const tree = treeBuilder();
  for (const event of events) tree.add(event);
  return tree.root();
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
    // Events come in step order: the step is nearly always the last one (a search would make a long run quadratic).
    const last = node.steps.at(-1);
    if (last?.step === n) return last;
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
          const usage = e.usage as Parameters<typeof costOf>[1] | undefined;
          step.ms = (step.ms ?? 0) + (e.ms as number);
          step.response = { text: e.text, toolCalls: e.toolCalls, usage, modelId: e.modelId };
          if (usage) addUsage(step, usage, (e.modelId as string | undefined) ?? node.model);
          break;
        }
        case 'thought':
        case 'reflection':
          s().items.push({ kind: 'thought', text: e.text as string });
          break;
        case 'tool_start': {
          const item: StepItem = { kind: 'tool', callId: e.callId as string, tool: e.tool as string, input: e.input };
          const parent = e.parentCallId ? findTool(s().items, e.parentCallId as string) : undefined;
          if (!parent) s().items.push(item);
          else if (parent.calls) parent.calls.push(item);
          else parent.calls = [item];
          break;
        }
        case 'tool_end': {
          const call = findTool(s().items, e.callId as string);
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
        case 'context_compact': {
          const cleared = (e.callIds as string[]).length;
          const text = `${e.kind}: ${e.tokensBefore} → ${e.tokensAfter} tokens${cleared ? `, ${plural(cleared, 'result')} cleared` : ''}`;
          s().items.push({ kind: 'compact', text });
          break;
        }
        case 'workspace_change':
          addChange(node, s(), e);
          break;
        case 'todos_update': {
          const mark = { pending: '[ ]', in_progress: '[~]', done: '[x]' } as Record<string, string>;
          const todos = e.todos as { content: string; status: string }[];
          s().items.push({
            kind: 'plan',
            text: todos.map((t) => `${mark[t.status] ?? '[ ]'} ${t.content}`).join('\n'),
          });
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

/**
 * Adds one model call's tokens and cost to its step (a retried parse makes two calls in one step).
 * The cost uses the same price table as the run's total; a model without a price leaves it unset.
 */
function addUsage(step: StepNode, usage: Parameters<typeof costOf>[1], modelId: string | undefined): void {
  step.tokens = (step.tokens ?? 0) + usage.promptTokens + usage.completionTokens;
  const cost = modelId === undefined ? undefined : costOf(modelId, usage);
  if (cost !== undefined) step.costUsd = (step.costUsd ?? 0) + cost;
}

/** A workspace change: its diff goes on the call that made it, its files into the run's Files panel. */
function addChange(node: RunNode, step: StepNode, e: LooseEvent): void {
  if (e.base) return;
  const files = e.files as { added: string[]; modified: string[]; removed: string[] };
  const panel = node.files ?? {};
  node.files = panel;
  for (const status of ['added', 'modified', 'removed'] as const) {
    for (const path of files[status])
      panel[path] = {
        status: panel[path]?.status === 'added' && status === 'modified' ? 'added' : status,
        step: step.step,
      };
  }
  const rewound = e.rewound as { step: number } | undefined;
  if (rewound) step.items.push({ kind: 'observation', text: `workspace rewound to step ${rewound.step}` });
  const call = typeof e.callId === 'string' ? findTool(step.items, e.callId) : undefined;
  if (call && e.diff) call.diff = e.diff as string;
}

function lastStep(node: RunNode): StepNode {
  if (node.steps.length === 0) node.steps.push({ step: 0, items: [] });
  return node.steps[node.steps.length - 1];
}

/** The tool item with this call id, among the items or the calls nested in them. */
function findTool(items: StepItem[], callId: string): Extract<StepItem, { kind: 'tool' }> | undefined {
  for (const item of items) {
    if (item.kind !== 'tool') continue;
    if (item.callId === callId) return item;
    const nested = item.calls && findTool(item.calls, callId);
    if (nested) return nested;
  }
  return undefined;
}
