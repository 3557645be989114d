import type { ModelResponse, ReadReply, Step } from '../../core/index.js';

/** The record of step `index`: the reply as it came, and what it was read as (the step's kind); no calls ran yet. */
export function newStep(index: number, reply: ReadReply, response: ModelResponse): Step {
  return {
    index,
    kind: reply.type,
    raw: response.text,
    rawToolCalls: response.toolCalls,
    reasoning: response.reasoning,
    providerItems: response.providerItems,
    thought: reply.thought,
    toolCalls: [],
    usage: response.usage,
  };
}
