import type { Message } from '../../../core/index.js';
import type { AnswerPart } from '../../../protocols/index.js';
import type { AgUiInterrupt, AgUiMessage } from './ag-ui-wire-schema.js';

/** A message's text (its text parts joined). */
export function agUiText(content: AgUiMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
}

/** The thread's earlier messages as the run's history (tool calls and results as tool turns). */
export function agUiHistory(messages: AgUiMessage[]): Message[] {
  const history: Message[] = [];
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'developer') history.push({ role: 'system', content: agUiText(m.content) });
    else if (m.role === 'user') history.push({ role: 'user', content: agUiText(m.content) });
    else if (m.role === 'assistant') {
      const toolCalls = m.toolCalls?.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
      history.push({ role: 'assistant', content: agUiText(m.content), ...(toolCalls?.length ? { toolCalls } : {}) });
    } else if (m.role === 'tool' && m.toolCallId) {
      history.push({ role: 'tool', toolCallId: m.toolCallId, content: agUiText(m.content) });
    }
  }
  return history;
}

/** The interrupt a question becomes: its id names the run and the call, so a resume finds both. */
export function interruptOf(part: Extract<AnswerPart, { type: 'question' }>, runId: string): AgUiInterrupt {
  const id = `${runId}:${part.callId}`;
  if (part.kind === 'approval') {
    return {
      id,
      reason: 'tool_approval',
      message: part.question ?? `Allow the call to ${part.tool} with ${JSON.stringify(part.input)}?`,
      toolCallId: part.callId,
      responseSchema: {
        type: 'object',
        properties: { approved: { type: 'boolean' }, reason: { type: 'string' } },
        required: ['approved'],
      },
    };
  }
  return {
    id,
    reason: 'user_input',
    message: part.question,
    toolCallId: part.callId,
    responseSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
  };
}
