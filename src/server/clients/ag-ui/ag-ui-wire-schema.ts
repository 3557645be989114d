import { z } from 'zod';

/**
 * The AG-UI protocol (`@ag-ui/core` 1.0): the `RunAgentInput` a client posts and the events
 * thinkflow streams back. A lenient schema of what thinkflow reads; other fields pass as they are.
 */

const AgUiContent = z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]);

/** One message of the thread, as the client holds it. */
export const AgUiMessage = z.looseObject({
  id: z.string(),
  role: z.enum(['developer', 'system', 'assistant', 'user', 'tool', 'activity', 'reasoning']),
  content: AgUiContent.optional(),
  toolCalls: z
    .array(
      z.looseObject({
        id: z.string(),
        type: z.literal('function'),
        function: z.object({ name: z.string(), arguments: z.string() }),
      }),
    )
    .optional(),
  toolCallId: z.string().optional(),
});
export type AgUiMessage = z.infer<typeof AgUiMessage>;

/** An answer to an interrupt, sent on the run that continues from it. */
export const AgUiResumeEntry = z.looseObject({
  interruptId: z.string(),
  status: z.enum(['resolved', 'cancelled']),
  payload: z.unknown().optional(),
});
export type AgUiResumeEntry = z.infer<typeof AgUiResumeEntry>;

/** A request to run an agent (AG-UI `RunAgentInput`). */
export const RunAgentInput = z.looseObject({
  threadId: z.string().regex(/^[\w.:-]{1,128}$/, 'threadId must be 1 to 128 letters, digits, "_", ".", ":" or "-"'),
  runId: z.string().min(1),
  parentRunId: z.string().optional(),
  state: z.unknown().optional(),
  messages: z.array(AgUiMessage).max(500),
  tools: z.array(z.looseObject({ name: z.string() })).default([]),
  context: z.array(z.object({ description: z.string(), value: z.string() })).default([]),
  forwardedProps: z.unknown().optional(),
  resume: z.array(AgUiResumeEntry).optional(),
});
export type RunAgentInput = z.infer<typeof RunAgentInput>;

/** What an approval interrupt's resume payload holds (`true`/`false` alone is read the same). */
export const AgUiApprovalPayload = z.union([
  z.boolean().transform((approved) => ({ approved, reason: undefined })),
  z.object({ approved: z.boolean(), reason: z.string().optional() }),
]);

/** What an `ask_user` interrupt's resume payload holds (a plain string is read the same). */
export const AgUiAnswerPayload = z.union([
  z.string().transform((answer) => ({ answer })),
  z.object({ answer: z.string() }),
]);

/** Something the run needs from a person before it goes on. */
export interface AgUiInterrupt {
  id: string;
  reason: 'tool_approval' | 'user_input';
  message?: string;
  toolCallId?: string;
  responseSchema?: Record<string, unknown>;
}

/** The AG-UI events thinkflow writes (`type` is the `EventType` string). */
export type AgUiEvent =
  | { type: 'RUN_STARTED'; threadId: string; runId: string; input?: unknown }
  | { type: 'RUN_FINISHED'; threadId: string; runId: string; result?: unknown; outcome: AgUiOutcome }
  | { type: 'RUN_ERROR'; message: string; code?: string }
  | { type: 'STEP_STARTED' | 'STEP_FINISHED'; stepName: string }
  | { type: 'TEXT_MESSAGE_START'; messageId: string; role: 'assistant' }
  | { type: 'TEXT_MESSAGE_CONTENT'; messageId: string; delta: string }
  | { type: 'TEXT_MESSAGE_END'; messageId: string }
  | { type: 'REASONING_START' | 'REASONING_END' | 'REASONING_MESSAGE_END'; messageId: string }
  | { type: 'REASONING_MESSAGE_START'; messageId: string; role: 'reasoning' }
  | { type: 'REASONING_MESSAGE_CONTENT'; messageId: string; delta: string }
  | { type: 'TOOL_CALL_START'; toolCallId: string; toolCallName: string; parentMessageId?: string }
  | { type: 'TOOL_CALL_ARGS'; toolCallId: string; delta: string }
  | { type: 'TOOL_CALL_END'; toolCallId: string }
  | { type: 'TOOL_CALL_RESULT'; messageId: string; toolCallId: string; content: string; role: 'tool' };

export type AgUiOutcome =
  | { type: 'success' }
  | { type: 'interrupt'; interrupts: AgUiInterrupt[] }
  | { type: 'cancelled' };
