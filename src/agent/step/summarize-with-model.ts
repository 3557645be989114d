import type { Message } from '../../core/index.js';
import type { Model } from '../../llm/index.js';
import type { Summarize } from '../../memory/index.js';

const INSTRUCTIONS =
  'Summarize the earlier steps of an agent run for the agent itself: what was tried, which tool results matter (keep exact numbers, names and ids), what failed, and what is still open. Be brief: at most 10 lines.';

/** A `Summarize` function that asks a model (the agent's, or a cheaper one) to summarize dropped steps. */
export function summarizeWithModel(model: Model): Summarize {
  return async (messages, signal) => {
    const transcript = messages.map(render).join('\n');
    const response = await model.generate({
      messages: [
        { role: 'system', content: INSTRUCTIONS },
        { role: 'user', content: transcript },
      ],
      signal,
    });
    return response.text;
  };
}

function render(message: Message): string {
  if (message.role === 'assistant' && message.toolCalls?.length) {
    const calls = message.toolCalls.map((c) => `${c.name}(${c.arguments})`).join(', ');
    return `assistant: ${message.content} [calls: ${calls}]`;
  }
  return `${message.role}: ${message.content}`;
}
