import type { SessionStore } from '../../../memory/index.js';
import type { AnswerPartReader } from '../../../protocols/index.js';
import type { A2aMessage } from '../../../tools/index.js';
import type { RunService } from '../../records/index.js';

/** What the A2A routes work with. */
export interface A2aRouteContext {
  runs: RunService;
  /** Where each A2A context's conversation is kept, under the context id. */
  sessions?: SessionStore;
  /** True when the API wants a bearer token: the card says so. */
  authRequired: boolean;
  onError: (error: unknown) => void;
}

/** What every A2A step works with: the route's context and this process's book of tasks. */
export interface A2aContext extends A2aRouteContext {
  book: A2aTaskBook;
}

export type RpcId = string | number | null;
export type RpcError = { code: number; message: string };
export const rpcError = (code: number, message: string): RpcError => ({ code, message });

/** A task begun or continued: where its stream picks up. */
export type Begun = { runId: string; after: number; reader: AnswerPartReader; continued: boolean };

/** A2A contexts of this process's tasks (a task with no context named by the client is its own). */
const CONTEXTS_KEPT = 10_000;

/** The A2A context and first message of each task this process began. */
export interface A2aTaskBook {
  remember(taskId: string, contextId: string, message: A2aMessage): void;
  contextOf(taskId: string): string;
  inputOf(taskId: string): A2aMessage | undefined;
}

/** A bounded book: the oldest tasks fall back to their own id as context. */
export function a2aTaskBook(): A2aTaskBook {
  const contexts = new Map<string, string>();
  const inputs = new Map<string, A2aMessage>();
  return {
    remember(taskId, contextId, message) {
      contexts.set(taskId, contextId);
      inputs.set(taskId, message);
      for (const map of [contexts, inputs]) if (map.size > CONTEXTS_KEPT) map.delete(map.keys().next().value as string);
    },
    contextOf: (taskId) => contexts.get(taskId) ?? taskId,
    inputOf: (taskId) => inputs.get(taskId),
  };
}
