import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { AnswerPart, AnswerPartReader } from '../../../protocols/index.js';
import { followAnswerParts, type RunService } from '../../records/index.js';
import { interruptOf } from './ag-ui-messages.js';
import type { AgUiEvent, AgUiInterrupt, AgUiOutcome, RunAgentInput } from './ag-ui-wire-schema.js';

/** One AG-UI response's stream: the AG-UI run it answers, the thinkflow run it follows, and what it opened. */
interface AgUiStream {
  input: RunAgentInput;
  runId: string;
  /** Steps opened in this response: a run resumed mid-step finishes only what it started. */
  steps: Set<string>;
  /** The text message the next tool call belongs to. */
  lastText?: string;
  interrupts: AgUiInterrupt[];
}

/** Streams the run's answer parts as AG-UI events, from `RUN_STARTED` to `RUN_FINISHED` (or `RUN_ERROR`). */
export function streamAgUi(
  c: Context,
  runs: RunService,
  follow: { input: RunAgentInput; runId: string; reader: AnswerPartReader; after: number },
): Response {
  const { input, runId } = follow;
  return streamSSE(c, async (sse) => {
    let open = true;
    sse.onAbort(() => {
      open = false;
    });
    const write = (event: AgUiEvent) => sse.writeSSE({ data: JSON.stringify(event) });
    await write({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId });
    const stream: AgUiStream = { input, runId, steps: new Set(), interrupts: [] };
    for await (const part of followAnswerParts(runs, follow, () => !open)) {
      for (const event of eventsOf(stream, part)) await write(event);
      // A question: the run waits for a person, this AG-UI run ends, and the answer starts the next one.
      if (part.type === 'run_end' || part.type === 'question') return;
    }
    if (open) await write({ type: 'RUN_ERROR', message: `Run ${runId} ended without a run_end event.` });
  });
}

/** The AG-UI events of one answer part. */
function eventsOf(stream: AgUiStream, part: AnswerPart): AgUiEvent[] {
  switch (part.type) {
    case 'step_start': {
      const stepName = `step ${part.step}`;
      stream.steps.add(stepName);
      stream.lastText = undefined;
      return [{ type: 'STEP_STARTED', stepName }];
    }
    case 'step_end': {
      const stepName = `step ${part.step}`;
      return stream.steps.delete(stepName) ? [{ type: 'STEP_FINISHED', stepName }] : [];
    }
    case 'text_start':
      stream.lastText = part.id;
      return [{ type: 'TEXT_MESSAGE_START', messageId: part.id, role: 'assistant' }];
    case 'text_delta':
      return [{ type: 'TEXT_MESSAGE_CONTENT', messageId: part.id, delta: part.text }];
    case 'text_end':
      return [{ type: 'TEXT_MESSAGE_END', messageId: part.id }];
    case 'reasoning_start':
      return [
        { type: 'REASONING_START', messageId: part.id },
        { type: 'REASONING_MESSAGE_START', messageId: part.id, role: 'reasoning' },
      ];
    case 'reasoning_delta':
      return [{ type: 'REASONING_MESSAGE_CONTENT', messageId: part.id, delta: part.text }];
    case 'reasoning_end':
      return [
        { type: 'REASONING_MESSAGE_END', messageId: part.id },
        { type: 'REASONING_END', messageId: part.id },
      ];
    case 'tool_call':
      return [
        {
          type: 'TOOL_CALL_START',
          toolCallId: part.callId,
          toolCallName: part.tool,
          ...(stream.lastText ? { parentMessageId: stream.lastText } : {}),
        },
        { type: 'TOOL_CALL_ARGS', toolCallId: part.callId, delta: part.arguments },
        { type: 'TOOL_CALL_END', toolCallId: part.callId },
      ];
    case 'tool_result':
      return [
        {
          type: 'TOOL_CALL_RESULT',
          messageId: `${stream.runId}-${part.callId}-result`,
          toolCallId: part.callId,
          content: part.ok ? part.output : (part.error ?? part.output),
          role: 'tool',
        },
      ];
    case 'question':
      stream.interrupts.push(interruptOf(part, stream.runId));
      return [
        ...closeSteps(stream),
        finished(stream, { outcome: { type: 'interrupt', interrupts: stream.interrupts } }),
      ];
    case 'answered':
      return [];
    case 'run_end':
      return [...closeSteps(stream), runEnd(stream, part)];
  }
}

function closeSteps(stream: AgUiStream): AgUiEvent[] {
  const events: AgUiEvent[] = [...stream.steps].map((stepName) => ({ type: 'STEP_FINISHED', stepName }));
  stream.steps.clear();
  return events;
}

const finished = (stream: AgUiStream, rest: { result?: unknown; outcome: AgUiOutcome }): AgUiEvent => ({
  type: 'RUN_FINISHED',
  threadId: stream.input.threadId,
  runId: stream.input.runId,
  ...rest,
});

function runEnd(stream: AgUiStream, part: Extract<AnswerPart, { type: 'run_end' }>): AgUiEvent {
  if (part.status === 'aborted' && part.output === '') return finished(stream, { outcome: { type: 'cancelled' } });
  if (part.status !== 'done' && part.output === '') {
    return {
      type: 'RUN_ERROR',
      message: part.error?.message ?? `The run ended ${part.status}.`,
      code: part.error?.code ?? part.status,
    };
  }
  return finished(stream, { result: part.object ?? part.output, outcome: { type: 'success' } });
}
