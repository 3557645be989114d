import { type Message, type ModelRequest, plural, stableJson, type ToolSpec } from '../../core/index.js';

/** Where a re-run first differs from its trace. */
export interface Divergence {
  /** The step where the difference shows, numbered as the events number it. */
  step: number;
  /** What differs. */
  kind: 'model_request' | 'model_response' | 'tool_call' | 'tool_output' | 'final' | 'steps' | 'status' | 'extra_call';
  /** One readable sentence naming the difference. */
  message: string;
  expected?: string;
  actual?: string;
}

/** Text shortened for a divergence message. */
export function clip(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Compares a request to the recorded one: message count, then each message's role, content, tool
 * calls and tool-call id, then the tool specs. Returns the first difference, or undefined.
 */
export function compareRequest(
  step: number,
  expected: { messages: Message[]; tools?: ToolSpec[] },
  actual: Pick<ModelRequest, 'messages' | 'tools'>,
): Divergence | undefined {
  const diff = (message: string, e?: string, a?: string): Divergence => ({
    step,
    kind: 'model_request',
    message,
    expected: e,
    actual: a,
  });
  const count = Math.max(expected.messages.length, actual.messages.length);
  for (let i = 0; i < count; i++) {
    const e = expected.messages[i];
    const a = actual.messages[i];
    if (!e || !a) {
      return diff(
        `message ${i + 1}: the recorded request had ${plural(expected.messages.length, 'message')}, this one has ${actual.messages.length}`,
        e && clip(textOf(e)),
        a && clip(textOf(a)),
      );
    }
    if (e.role !== a.role) return diff(`message ${i + 1}: role differs`, e.role, a.role);
    const eText = textOf(e);
    const aText = textOf(a);
    if (eText !== aText) {
      return diff(`message ${i + 1} (${a.role}): content differs ${where(eText, aText)}`, clip(eText), clip(aText));
    }
    const eCalls = stableJson(e.role === 'assistant' ? (e.toolCalls ?? []) : []);
    const aCalls = stableJson(a.role === 'assistant' ? (a.toolCalls ?? []) : []);
    if (eCalls !== aCalls) return diff(`message ${i + 1} (assistant): tool calls differ`, clip(eCalls), clip(aCalls));
    const eId = e.role === 'tool' ? e.toolCallId : '';
    const aId = a.role === 'tool' ? a.toolCallId : '';
    if (eId !== aId) return diff(`message ${i + 1} (tool): answers a different call`, eId, aId);
  }
  const eTools = stableJson(expected.tools ?? []);
  const aTools = stableJson(actual.tools ?? []);
  if (eTools !== aTools) {
    const names = (tools?: ToolSpec[]) => (tools ?? []).map((t) => t.name).join(', ');
    return diff('the tool specs differ', names(expected.tools), names(actual.tools));
  }
  return undefined;
}

function where(expected: string, actual: string): string {
  let i = 0;
  while (i < expected.length && i < actual.length && expected[i] === actual[i]) i++;
  return `at character ${i + 1}`;
}

/** Content to compare: text as it is; parts as their exact JSON, so a changed image is a divergence too. */
function textOf(message: Message): string {
  return typeof message.content === 'string' ? message.content : stableJson(message.content);
}
