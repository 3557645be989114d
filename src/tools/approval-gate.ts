import { errorMessage } from '../core/index.js';
import type { AnyTool, ApprovalRequest } from './tool.js';

/** Decides `needsApproval` calls; returns the denial observation, or undefined when the call may run. */
export type ApprovalGate = (tool: AnyTool, input: unknown, callId?: string) => Promise<string | undefined> | undefined;

/** Asks a person; resolves true when approved. */
export type Approver = (request: ApprovalRequest) => boolean | Promise<boolean>;

/**
 * Wraps an approver so that requests reach it one at a time (a person answers one question at
 * a time) and so that a missing approver, a denial or a throwing approver all become
 * observations rather than exceptions.
 */
export function createApprovalGate(approve: Approver | undefined): {
  gate: ApprovalGate;
  ask: (request: ApprovalRequest) => Promise<boolean>;
} {
  // Made at the first question: most runs ask none, and each run makes a gate.
  let queue: Promise<unknown> | undefined;
  const ask = (request: ApprovalRequest): Promise<boolean> => {
    if (!approve) return Promise.resolve(false);
    queue ??= Promise.resolve();
    const answer = queue.then(() => approve(request)).then((ok) => ok === true);
    queue = answer.catch(() => undefined);
    return answer;
  };

  const decide = async (tool: AnyTool, input: unknown, callId?: string): Promise<string | undefined> => {
    let needed: boolean;
    try {
      needed = typeof tool.needsApproval === 'function' ? await tool.needsApproval(input) : true;
    } catch {
      needed = true; // When the check itself breaks, ask rather than run unchecked.
    }
    if (!needed) return undefined;
    if (!approve) {
      return `The call to ${tool.name} was not made: it needs approval and no approver is configured. To allow it, pass an \`approve\` callback to the Agent (or to createToolExecutor).`;
    }
    try {
      if (await ask({ tool: tool.name, input, callId })) return undefined;
      return `The call to ${tool.name} was denied by the user and was not made. Do not repeat it; continue without it or answer with what you have.`;
    } catch (error) {
      return `The call to ${tool.name} was not made: asking for approval failed (${errorMessage(error)}).`;
    }
  };

  return { gate: (tool, input, callId) => (tool.needsApproval ? decide(tool, input, callId) : undefined), ask };
}
