import type * as Restate from '@restatedev/restate-sdk';
import type { Agent } from '../../agent/index.js';
import { importOptional, type Message, type RunResult } from '../../core/index.js';
import { type JournaledAgentOptions, runJournaled } from '../journaled-agent.js';
import { restateJournal } from './restate-journal.js';

/** What `restateAgent` takes besides the agent. */
export interface RestateAgentOptions extends JournaledAgentOptions {
  /**
   * A virtual object keyed by thread id instead of a service: runs on one thread run one at a time,
   * in order, and each sees the thread's earlier turns. Default false.
   */
  threads?: boolean;
}

/** What the `run` handler takes: the input, as a string or `{ input, history? }` (a service's earlier turns). */
export type RestateRunRequest = string | { input: string; history?: Message[] };

type SDK = typeof Restate;

/**
 * Makes `agent` a Restate service whose `run` handler runs the loop: each model call and tool call is
 * a `ctx.run` step, each approval and `ask_user` question an awakeable, and Restate's cancel cancels
 * the run. With `threads: true` it is a virtual object keyed by thread id (runs on one thread in
 * order, with the thread's history in the object's state). Bind it to an endpoint as any service.
 * Resolve what `onPending` reports by completing its `answerId` through Restate's awakeable API.
 *
 * Retries: thinkflow's own (the provider's `retry`, a tool's `retries`) are the only layer. A step that
 * fails is journaled as failed (a `TerminalError`), so Restate never retries it on top; Restate runs
 * a step again only when the process died during it.
 *
 * Async because it loads the SDK's ES module: the one your endpoint imports (its CommonJS twin would
 * make handlers and errors your endpoint does not recognize).
 *
 * @example
 * import * as restate from '@restatedev/restate-sdk';
 * restate.endpoint().bind(await restateAgent(agent, { name: 'support' })).listen(9080);
 */
export async function restateAgent(agent: Agent, options: RestateAgentOptions = {}) {
  const sdk = await importOptional<SDK>('restate', '@restatedev/restate-sdk');
  const name = options.name ?? agent.name ?? 'agent';
  if (!options.threads) {
    return sdk.service({
      name,
      handlers: {
        run: async (ctx: Restate.Context, request: RestateRunRequest): Promise<RunResult> =>
          runOnRestate(sdk, ctx, {
            agent,
            options,
            input: inputOf(request),
            history: typeof request === 'string' ? [] : (request.history ?? []),
          }),
      },
    });
  }
  return sdk.object({
    name,
    handlers: {
      run: sdk.handlers.object.exclusive(
        async (ctx: Restate.ObjectContext, request: RestateRunRequest): Promise<RunResult> => {
          const history = (await ctx.get<Message[]>('history')) ?? [];
          const input = inputOf(request);
          const result = await runOnRestate(sdk, ctx, { agent, options, input, history });
          const turn: Message[] = [
            { role: 'user', content: input },
            { role: 'assistant', content: result.output },
          ];
          ctx.set('history', [...history, ...turn]);
          return result;
        },
      ),
      /** The thread's earlier turns. */
      history: sdk.handlers.object.shared(
        async (ctx: Restate.ObjectSharedContext): Promise<Message[]> => (await ctx.get<Message[]>('history')) ?? [],
      ),
    },
  });
}

interface RestateRun {
  agent: Agent;
  options: RestateAgentOptions;
  input: string;
  history: Message[];
}

async function runOnRestate(sdk: SDK, ctx: Restate.Context, run: RestateRun): Promise<RunResult> {
  const abort = new AbortController();
  const journal = restateJournal(sdk, ctx, abort);
  const result = await runJournaled(run.agent, run.input, journal, {
    runId: ctx.request().id,
    signal: abort.signal,
    history: run.history,
    onEvent: run.options.onEvent,
    onPending: run.options.onPending,
  });
  // Restate's cancel reached a step or a wait: the loop ended the run as aborted; the invocation ends cancelled.
  if (journal.cancelled) throw journal.cancelled;
  return JSON.parse(JSON.stringify(result)) as RunResult;
}

function inputOf(request: RestateRunRequest): string {
  return typeof request === 'string' ? request : request.input;
}
