import type { Agent } from '../agent/index.js';
import type { AgentEvent, Message, RunResult, StepJournal } from '../core/index.js';
import { type EventMeta, replayEvents } from './replay-events.js';

/** A person's answer the run waits for, as an engine hands it to whoever resolves it. */
export interface PendingAnswer {
  runId: string;
  callId: string;
  tool: string;
  kind: 'approval' | 'question';
  /** The engine's id for the wait (a Restate awakeable id, a DBOS topic): resolve the wait with it. */
  answerId: string;
  question?: string;
  input?: unknown;
}

/** What an engine's agent (`dbosAgent`, `restateAgent`) takes besides the agent, whichever the engine. */
export interface JournaledAgentOptions {
  /**
   * The name the engine knows the agent by (DBOS: its workflow and queue; Restate: its service).
   * Default: the agent's name, else `agent`.
   */
  name?: string;
  /**
   * Each event as it happens. The events of a replayed part are not sent again; `meta.seq` is the
   * event's place in the run, the same on every replay (the tail of a step cut off by a restart may come twice).
   */
  onEvent?: (event: AgentEvent, meta: EventMeta) => void;
  /** Each approval or question the run waits for, with the id that resolves it (again after each replay). */
  onPending?: (pending: PendingAnswer) => void;
}

/** How a run on a durable engine reaches the world: its events and its questions. */
export interface JournaledRunOptions extends Omit<JournaledAgentOptions, 'name'> {
  runId: string;
  signal?: AbortSignal;
  /** The thread's earlier turns. */
  history?: Message[];
}

/**
 * Runs `agent` once on a durable engine's journal: `agent.run(input, { journal })`. The loop makes each
 * model call and tool call a step of the journal (code mode's nested calls each one), and asks its
 * approvals and `ask_user` questions as the journal's durable waits; it knows nothing of the engine.
 * Here, at the edge: the events of a replayed part are held back, and each wait is told to `onPending`.
 */
export async function runJournaled(
  agent: Agent,
  input: string,
  journal: StepJournal,
  options: JournaledRunOptions,
): Promise<RunResult> {
  const { runId, onPending } = options;
  const events = replayEvents(journal, (event, meta) => {
    if (onPending && event.type === 'approval_request' && event.answerId !== undefined && !event.parentRunId) {
      const { callId, tool, question, input: asked, answerId } = event;
      onPending({ runId, callId, tool, kind: event.kind ?? 'approval', answerId, question, input: asked });
    }
    options.onEvent?.(event, meta);
  });
  const result = await agent.run(input, {
    runId,
    signal: options.signal,
    journal: events.journal,
    history: options.history,
    onEvent: options.onEvent || onPending ? events.onEvent : undefined,
  });
  events.flush();
  return result;
}
