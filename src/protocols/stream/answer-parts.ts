import { type AgentEvent, parseJsonLenient, type RunError, type RunStatus, type RunUsage } from '../../core/index.js';
import { type AnswerDelta, createAnswerReader } from './answer-text.js';

/**
 * A run's answer as a person sees it, in the order it happens: the pieces every UI protocol (the
 * AI SDK UI message stream, AG-UI, A2A) and the OpenAI streams write in their own wire format.
 * Text and reasoning come as start/delta/end segments (one per model call, or the final answer),
 * each tool call once with its input, its result, and the questions a person must answer.
 */
export type AnswerPart =
  | { type: 'step_start'; step: number }
  | { type: 'step_end'; step: number }
  | { type: 'text_start'; id: string }
  | { type: 'text_delta'; id: string; text: string }
  | { type: 'text_end'; id: string }
  | { type: 'reasoning_start'; id: string }
  | { type: 'reasoning_delta'; id: string; text: string }
  | { type: 'reasoning_end'; id: string }
  /** `arguments` is the input as JSON text, as a wire protocol streams it. */
  | { type: 'tool_call'; callId: string; tool: string; input: unknown; arguments: string }
  /** `denied`: a person refused the call, so it never ran. */
  | { type: 'tool_result'; callId: string; tool: string; ok: boolean; output: string; error?: string; denied: boolean }
  /** The run waits for a person: to approve the call (`approval`) or answer its free-form question (`question`). */
  | { type: 'question'; callId: string; tool: string; input: unknown; question?: string; kind: 'approval' | 'question' }
  | { type: 'answered'; callId: string; approved: boolean; answer?: string }
  | {
      type: 'run_end';
      status: RunStatus;
      output: string;
      object?: unknown;
      usage: RunUsage;
      error?: RunError;
    };

export type AnswerPartType = AnswerPart['type'];

/** Where a reader starts. */
export interface AnswerPartReaderOptions {
  /** The run whose answer this is; events of the agents it called (nested under it) are not. */
  runId: string;
  /** Calls the client already has (a stream continued after a question): not announced again. */
  knownCalls?: Iterable<string>;
  /** Prefix of the text and reasoning segment ids (default `runId`), unique per stream. */
  idPrefix?: string;
}

/** Reads a run's events, one at a time, into the parts of its answer. */
export interface AnswerPartReader {
  read(event: AgentEvent): AnswerPart[];
}

/**
 * Turns a run's events into its answer parts. The text parts are the answer text pieces of
 * `createAnswerReader` (the one translation from events to answer text), so every UI protocol
 * streams the same words as the OpenAI streams and the non-streamed answer: live native speech,
 * none of a text protocol's scaffolding (`Thought:`, a JSON action), the final answer once. A piece
 * that starts a segment opens a new text part; tool calls, questions, reasoning and steps come from
 * the events beside it. Pure: no I/O, no clock.
 *
 * Joining the `text_delta`s of a run, with a blank line between segments, gives the answer text the
 * OpenAI chat stream sends (`streamRunAnswer`).
 */
export function createAnswerPartReader(options: AnswerPartReaderOptions): AnswerPartReader {
  const { runId } = options;
  const prefix = options.idPrefix ?? runId;
  const known = new Set(options.knownCalls ?? []);
  const denied = new Set<string>();
  const answer = createAnswerReader({ runId });
  let step: number | undefined;
  let text: string | undefined;
  let reasoning: string | undefined;
  let reasoningSent = false;
  let counter = 0;
  let object: unknown;

  const closeText = (out: AnswerPart[]) => {
    if (text !== undefined) out.push({ type: 'text_end', id: text });
    text = undefined;
  };
  const closeReasoning = (out: AnswerPart[]) => {
    if (reasoning !== undefined) out.push({ type: 'reasoning_end', id: reasoning });
    reasoning = undefined;
  };
  const closeStep = (out: AnswerPart[]) => {
    closeText(out);
    closeReasoning(out);
    if (step !== undefined) out.push({ type: 'step_end', step });
    step = undefined;
  };
  const say = (out: AnswerPart[], pieces: readonly AnswerDelta[]) => {
    for (const piece of pieces) {
      closeReasoning(out);
      if (piece.start) closeText(out);
      if (text === undefined) {
        counter += 1;
        text = `${prefix}-text-${counter}`;
        out.push({ type: 'text_start', id: text });
      }
      out.push({ type: 'text_delta', id: text, text: piece.text });
    }
  };
  const think = (out: AnswerPart[], piece: string) => {
    if (piece === '') return;
    if (reasoning === undefined) {
      counter += 1;
      reasoning = `${prefix}-reasoning-${counter}`;
      out.push({ type: 'reasoning_start', id: reasoning });
    }
    reasoningSent = true;
    out.push({ type: 'reasoning_delta', id: reasoning, text: piece });
  };
  const announce = (out: AnswerPart[], callId: string, tool: string, input: unknown, raw?: string) => {
    if (known.has(callId)) return;
    known.add(callId);
    closeText(out);
    closeReasoning(out);
    out.push({ type: 'tool_call', callId, tool, input, arguments: raw ?? JSON.stringify(input ?? {}) });
  };

  function read(event: AgentEvent): AnswerPart[] {
    if (event.runId !== runId) return [];
    const out: AnswerPart[] = [];
    const pieces = answer.read(event);
    switch (event.type) {
      case 'step_start':
        closeStep(out);
        step = event.step;
        out.push({ type: 'step_start', step: event.step });
        break;
      case 'model_request':
        closeText(out);
        closeReasoning(out);
        reasoningSent = false;
        break;
      case 'reasoning_delta':
        think(out, event.text);
        break;
      case 'model_response':
        if (event.reasoning && !reasoningSent) think(out, event.reasoning);
        closeReasoning(out);
        // What the model said before its tool calls (held back until the reply was read) goes first.
        say(out, pieces);
        for (const call of event.toolCalls ?? []) {
          const parsed = parseJsonLenient(call.arguments);
          announce(out, call.id, call.name, parsed.ok ? parsed.value : call.arguments, call.arguments);
        }
        break;
      case 'tool_start':
        announce(out, event.callId, event.tool, event.input);
        break;
      case 'approval_request': {
        announce(out, event.callId, event.tool, event.input);
        const kind = event.kind ?? 'approval';
        out.push({
          type: 'question',
          callId: event.callId,
          tool: event.tool,
          input: event.input,
          question: event.question,
          kind,
        });
        break;
      }
      case 'approval_response':
        if (!event.approved) denied.add(event.callId);
        out.push({ type: 'answered', callId: event.callId, approved: event.approved, answer: event.answer });
        break;
      case 'tool_end':
        announce(out, event.callId, event.tool, undefined);
        out.push({
          type: 'tool_result',
          callId: event.callId,
          tool: event.tool,
          ok: event.ok,
          output: event.output,
          error: event.error,
          denied: !event.ok && denied.has(event.callId),
        });
        break;
      case 'final':
        object = event.object;
        say(out, pieces);
        break;
      case 'run_end':
        // The best answer of a run that ended without a `final` (max steps) is its last text.
        say(out, pieces);
        closeStep(out);
        out.push({
          type: 'run_end',
          status: event.status,
          output: event.output,
          object,
          usage: event.usage,
          error: event.error,
        });
        break;
      default:
        say(out, pieces);
    }
    return out;
  }

  return { read };
}
