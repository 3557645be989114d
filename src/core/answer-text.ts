import type { AgentEvent } from './agent-event.js';
import { redactText } from './redact-secrets.js';

/**
 * One piece of a run's answer text. `start` marks the first piece of a new segment: what one model
 * call said (text before its tool calls), or the final answer after tool steps. A chat reply joins
 * segments with a blank line; the Responses API, UI streams and AG-UI make each segment one message.
 */
export interface AnswerDelta {
  text: string;
  start: boolean;
}

/** Reads a run's events, in order, into the text of its answer. */
export interface AnswerReader {
  /** The answer text this event adds (empty for most events). */
  read(event: AgentEvent): AnswerDelta[];
}

export interface AnswerReaderOptions {
  /** Only the final answer, whole (a structured-output answer must be the JSON and nothing else). */
  finalOnly?: boolean;
}

/** The blank line a chat reply puts between segments. */
export const SEGMENT_BREAK = '\n\n';

// Text that may be a protocol's scaffolding rather than speech: a tag, JSON, a code fence, a ReAct
// keyword, or a call written as text (`search(...)`). The loop decides what it was once the reply is read.
const KEYWORDS = String.raw`(?:thought|action(?:\s+input)?|final\s+answer|observation|思考|行动(?:输入)?|最终答案|观察)\s*\**\s*[:：]`;
const SCAFFOLD_START = new RegExp(String.raw`^(?:[<{[]|\x60\x60\x60|\**${KEYWORDS}|[\p{L}_][\p{L}\p{N}_.-]*\()`, 'iu');
const SCAFFOLD_LINE = new RegExp(String.raw`\n[ \t]*(?:\**${KEYWORDS}|<tool_call>|<function=)`, 'iu');
/** Characters of a reply (or of its last line) before it can be told from scaffolding. */
const DECIDE_AT = 16;

/**
 * The one translation from a run's events to its answer text, shared by every adapter so a client
 * gets the same answer streamed or not. With the `native` protocol what the model says is the answer,
 * so it goes out as it streams, segment by segment, except text that may be scaffolding (a ReAct
 * `Thought:`, a JSON action, a `<think>` block), which waits until the loop has read the reply: text
 * before real tool calls is speech, a text action is not. The `json` and `react` protocols stream
 * scaffolding, so only their final answer goes out. Whatever part of the final answer was not sent
 * (a model that does not stream, an answer a guardrail rewrote) follows at `final`; a run that ends
 * with an answer but no `final` (the best answer at max steps) sends it at `run_end`. Events of
 * nested runs (an agent used as a tool) are not part of the answer.
 */
export function createAnswerReader(options: AnswerReaderOptions = {}): AnswerReader {
  let runId: string | undefined;
  let live = false;
  let finalSeen = false;
  // The current model call: its whole text so far, how much of it (after leading whitespace) went out.
  let call = '';
  let sent = 0;
  let mode: 'undecided' | 'speech' | 'held' = 'undecided';
  let sentInCall = false;

  const piece = (text: string, start: boolean): AnswerDelta[] => (text === '' ? [] : [{ text, start }]);

  /** Sends the call's text up to `end` (an index into its trimmed text). */
  const sendUpTo = (trimmed: string, end: number): AnswerDelta[] => {
    if (end <= sent) return [];
    const text = trimmed.slice(sent, end);
    sent = end;
    const start = !sentInCall;
    sentInCall = true;
    return piece(text, start);
  };

  const onDelta = (): AnswerDelta[] => {
    const trimmed = call.trimStart();
    if (trimmed === '' || mode === 'held') return [];
    if (mode === 'undecided') {
      if (SCAFFOLD_START.test(trimmed)) mode = 'held';
      else if (trimmed.length >= DECIDE_AT || trimmed.includes('\n')) mode = 'speech';
      if (mode !== 'speech') return [];
    }
    const keyword = SCAFFOLD_LINE.exec(trimmed);
    if (keyword) {
      mode = 'held';
      return sendUpTo(trimmed, keyword.index);
    }
    // The last line may still become a keyword line: it goes once it is long enough to tell.
    const lastBreak = trimmed.lastIndexOf('\n');
    const end = trimmed.length - lastBreak - 1 >= DECIDE_AT ? trimmed.length : lastBreak + 1;
    return sendUpTo(trimmed, end);
  };

  const onFinal = (output: string): AnswerDelta[] => {
    finalSeen = true;
    if (options.finalOnly) return piece(output, true);
    // A stored run's final answer has its secrets redacted, its streamed pieces each on their own: the
    // same text either way once redacted, so what was said is compared as the store would keep it.
    const said = redactText(call.trimStart().slice(0, sent));
    if (said.trim() === output.trim()) return [];
    if (said !== '' && output.startsWith(said)) return piece(output.slice(said.length), false);
    return piece(output.trimStart(), true);
  };

  return {
    read(event) {
      runId ??= event.type === 'run_start' ? event.runId : undefined;
      if (event.runId !== runId) return [];
      switch (event.type) {
        case 'run_start':
          live = event.protocol === 'native' && !options.finalOnly;
          return [];
        case 'model_request':
          call = '';
          sent = 0;
          mode = 'undecided';
          sentInCall = false;
          return [];
        case 'model_delta':
          if (!live) return [];
          call += event.text;
          return onDelta();
        case 'model_response':
          // Text beside real tool calls is what the model said before acting.
          if (!live || !event.toolCalls?.length) return [];
          if (call === '') call = event.text;
          mode = 'speech';
          return sendUpTo(call.trimStart(), call.trimStart().length);
        case 'final':
          return onFinal(event.output);
        case 'run_end':
          return finalSeen ? [] : onFinal(event.output);
        default:
          return [];
      }
    },
  };
}
