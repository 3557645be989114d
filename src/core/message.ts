import { z } from 'zod';

/** A tool call requested by the model. `arguments` is the raw JSON text the model produced. */
export const ToolCall = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
});
export type ToolCall = z.infer<typeof ToolCall>;

/** One chat message. Tool results carry the id of the call they answer. */
export const Message = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string(), toolCalls: z.array(ToolCall).optional() }),
  z.object({ role: z.literal('tool'), content: z.string(), toolCallId: z.string(), name: z.string().optional() }),
]);
export type Message = z.infer<typeof Message>;
