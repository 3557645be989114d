import { type AgentEvent, redactText } from '../../core/index.js';
import { createReplyScanner, type ReplyScanner } from './reply-scanner.js';

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
  /** The run whose answer this is (default: the first `run_start` read); nested runs' events are not. */
  runId?: string;
}

/** The blank line a chat reply puts between segments. */
export const SEGMENT_BREAK = '\n\n';

/**
 * The one translation from a run's events to its answer text, shared by every adapter so a client
 * gets the same answer streamed or not, and gets it as the model writes it. Each model call's reply
 * is read as it streams by its protocol's scanner (`createReplyScanner`): with `native` what the model
 * says goes out, except what may be a call written as text; with `react` and `json`, what follows the
 * final-answer marker (or the answer field's string). What a scanner holds back is local: a line that
 * may still become a keyword line, a few characters that may become a tag. Text before real tool calls
 * goes out when the reply ends with them. Whatever part of the final answer was not sent (a model that
 * does not stream, an answer a guardrail rewrote, a reply that could not be told) follows at `final`;
 * a run that ends with an answer but no `final` (the best answer at max steps) sends it at `run_end`.
 * Events of nested runs (an agent used as a tool) are not part of the answer.
 */
export function createAnswerReader(options: AnswerReaderOptions = {}): AnswerReader {
  let runId = options.runId;
  let protocol: string | undefined;
  let tools: readonly string[] = [];
  let finalSeen = false;
  // The current model call: its scanner, whether it streamed, and what of it went out.
  let scanner: ReplyScanner | undefined;
  let streamed = false;
  let said = '';

  const piece = (text: string, start: boolean): AnswerDelta[] => (text === '' ? [] : [{ text, start }]);
  const say = (text: string): AnswerDelta[] => {
    const start = said === '';
    said += text;
    return piece(text, start);
  };

  const onFinal = (output: string): AnswerDelta[] => {
    finalSeen = true;
    if (options.finalOnly) return piece(output, true);
    // A stored run's final answer has its secrets redacted, as are the streamed pieces it is compared with.
    for (const spoken of said === '' ? [] : [said, redactText(said)]) {
      if (spoken.trim() === output.trim()) return [];
      if (output.startsWith(spoken)) return piece(output.slice(spoken.length), false);
    }
    return piece(output.trimStart(), true);
  };

  return {
    read(event) {
      runId ??= event.type === 'run_start' ? event.runId : undefined;
      if (event.runId !== runId) return [];
      switch (event.type) {
        case 'run_start':
          protocol = options.finalOnly ? undefined : event.protocol;
          tools = event.tools;
          return [];
        case 'model_request':
          scanner = protocol === undefined ? undefined : createReplyScanner(protocol, tools);
          streamed = false;
          said = '';
          return [];
        case 'model_delta':
          if (!scanner) return [];
          streamed = true;
          return say(scanner.push(event.text));
        case 'model_response': {
          if (!scanner) return [];
          const text = streamed ? '' : scanner.push(event.text);
          // Text beside real tool calls is what the model said before acting.
          return say(event.toolCalls?.length ? text + scanner.endWithCalls() : text);
        }
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
