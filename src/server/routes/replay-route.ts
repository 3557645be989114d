import type { Hono } from 'hono';
import { Agent } from '../../agent/index.js';
import { type AgentEvent, type EventOf, isThinkflowError } from '../../core/index.js';
import {
  type Divergence,
  firstDivergence,
  parseTrace,
  replayModel,
  replayTools,
  traceRuns,
} from '../../trace/index.js';
import { apiError, bodyText } from '../http/index.js';
import { type AgentEntry, resolveAgent } from '../records/index.js';
import { noSuchAgent } from './run-routes.js';

/** The answer of POST /v1/agents/:name/replay. */
export interface ReplayReport {
  agent: string;
  /** How the replayed run ended, and how the recorded one did. */
  status: string;
  recordedStatus?: string;
  steps: number;
  recordedSteps: number;
  /** Where the current agent first does something else than the trace; null when it does the same. */
  divergence: Divergence | null;
}

/** What the replay body may be sent as besides JSON: a JSONL trace (neither is a type a page can send unasked). */
export const REPLAY_BODY_TYPES = ['application/x-ndjson', 'application/jsonl', 'application/json-seq'] as const;

/**
 * POST /v1/agents/:name/replay: the body is a JSONL trace (as `GET /v1/runs/:id/trace` or `--trace`
 * writes it). The agent as it is configured now (its prompt, tools and protocol) runs the trace's
 * input, its model answering with the recorded replies and its tools with the recorded outputs (no
 * model is called and no tool runs), and the first step where it diverges from the trace is returned.
 * Approvals and `ask_user` get the recorded answers. Nothing is stored: it is not a run of the server.
 * Handoffs are not replayed: the agents handed off to run as they are (agents used as tools are replayed).
 * The body is bounded by `limits.maxBodyBytes`; a body that is not a trace answers 400.
 */
export function replayRoute(app: Hono, agents: Record<string, AgentEntry>): void {
  app.post('/v1/agents/:name/replay', async (c) => {
    const name = c.req.param('name');
    const entry = Object.hasOwn(agents, name) ? agents[name] : undefined;
    if (!entry) return noSuchAgent(c, name);
    const text = await bodyText(c.req);
    if (text === undefined) return apiError(c, 'invalid_request', 'The request body is not valid UTF-8.');
    let recorded: AgentEvent[];
    try {
      recorded = parseTrace(text, 'the request body');
    } catch (error) {
      if (!isThinkflowError(error)) throw error;
      return apiError(c, 'invalid_request', error.message);
    }
    const runs = traceRuns(recorded);
    if (runs.length > 1) {
      const ids = runs.map((run) => run[0]?.runId).join(', ');
      return apiError(
        c,
        'invalid_request',
        `The body holds ${runs.length} runs (${ids}), as a file --trace appended to does: send one run's trace.`,
      );
    }
    const start = recorded.find((e): e is EventOf<'run_start'> => e.type === 'run_start' && !e.parentRunId);
    if (!start) {
      return apiError(
        c,
        'invalid_request',
        'The body has no run_start event: send a whole JSONL trace (GET /v1/runs/:id/trace).',
      );
    }
    const current = await resolveAgent(entry);
    if (!(current instanceof Agent)) {
      return apiError(
        c,
        'invalid_request',
        `Agent "${name}" is not an Agent, so its model cannot answer from a trace.`,
      );
    }
    return c.json(await replay(current, name, recorded, start, c.req.raw.signal));
  });
}

async function replay(
  current: Agent,
  name: string,
  recorded: AgentEvent[],
  start: EventOf<'run_start'>,
  signal: AbortSignal,
): Promise<ReplayReport> {
  const own = recorded.filter((e) => e.runId === start.runId);
  const answers = own.filter((e): e is EventOf<'approval_response'> => e.type === 'approval_response');
  const model = replayModel(recorded);
  const real = current.options.tools ?? [];
  // Handoffs are added by the agent itself; a replayed tool of the same name would clash with them.
  const handoffs = new Set(current.tools.all().map((t) => t.name));
  for (const tool of real) handoffs.delete(tool.name);
  // The agent's own settings, with the trace answering for the model and the tools, and no stores:
  // a replay must not add to long-term memory, a session or a trace file.
  const agent = new Agent({
    ...current.options,
    model,
    tools: replayTools(recorded, { tools: real }).filter((tool) => !handoffs.has(tool.name)),
    memory: undefined,
    sessions: undefined,
    traceFile: undefined,
  });
  const events: AgentEvent[] = [];
  const result = await agent.run(start.input, {
    signal,
    onEvent: (event) => events.push(event),
    approve: () => answers.shift()?.approved ?? false,
    ask: async () => answers.shift()?.answer ?? '',
  });
  const stepsOf = (list: AgentEvent[], runId: string) =>
    new Set(list.filter((e) => e.runId === runId && e.type === 'step_start').map((e) => e.step)).size;
  const end = own.find((e): e is EventOf<'run_end'> => e.type === 'run_end');
  return {
    agent: name,
    status: result.status,
    recordedStatus: end?.status,
    steps: stepsOf(events, result.runId),
    recordedSteps: stepsOf(own, start.runId),
    divergence: firstDivergence(recorded, events) ?? model.divergence ?? null,
  };
}
