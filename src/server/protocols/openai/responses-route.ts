import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { type Message, redactText } from '../../../core/index.js';
import type { AnswerDelta } from '../../../protocols/index.js';
import { runFailed } from '../../http/index.js';
import type { RunService } from '../../records/index.js';
import { isFinished, type RunRecord } from '../../records/index.js';
import { type AnswerEnd, type AnswerUsage, streamRunAnswer } from '../../runs/index.js';
import { clientCallId, endFailure, USAGE_ESTIMATED_HEADER } from './openai-answer.js';
import type { OpenAiTurn, ToolResult } from './openai-turns.js';
import { followOf, readCaller, readOpenAiRequest, startOrContinue } from './openai-turns.js';
import {
  FunctionCallItem,
  FunctionCallOutputItem,
  type InputItem,
  InputMessage,
  ResponsesBody,
  type TextFormat,
  unsupportedResponsesField,
} from './responses-wire.js';

const RESPONSE_ID = /^resp_([0-9a-f-]{36})(?:_\d+)?$/;

function partsText(content: string | { type: string; text?: string }[]): string | { bad: string } {
  if (typeof content === 'string') return content;
  const bad = content.find((p) => p.type !== 'input_text' && p.type !== 'output_text' && p.type !== 'text');
  if (bad) return { bad: bad.type };
  return content.map((p) => p.text ?? '').join('');
}

/**
 * What the input asks: function call outputs at its end continue the run that waits for them;
 * otherwise the last user message is the run's input and the items before it its history, with
 * function calls and their outputs kept as tool turns.
 */
function readTurn(input: ResponsesBody['input'], earlier: Message[]): OpenAiTurn {
  if (typeof input === 'string') return { type: 'start', input, history: earlier };
  const items = input as InputItem[];
  const last = items.length - 1;
  const outputs: ToolResult[] = [];
  for (let i = last; i >= 0 && items[i].type === 'function_call_output'; i--) {
    const item = FunctionCallOutputItem.parse(items[i]);
    const text = partsText(item.output);
    if (typeof text !== 'string')
      return { type: 'invalid', message: `input[${i}].output: a "${text.bad}" part cannot reach an agent; send text.` };
    outputs.unshift({ id: item.call_id, output: text, field: `input[${i}].call_id` });
  }
  if (outputs.length > 0) return { type: 'results', results: outputs };
  const history = [...earlier];
  let question: string | undefined;
  for (const [i, raw] of items.entries()) {
    const message = InputMessage.safeParse(raw);
    if (message.success) {
      const text = partsText(message.data.content);
      if (typeof text !== 'string')
        return {
          type: 'invalid',
          message: `input[${i}].content: a "${text.bad}" part cannot reach an agent; send text parts only.`,
        };
      const { role } = message.data;
      if (i === last) {
        if (role !== 'user')
          return {
            type: 'invalid',
            message: `input[${i}] must be the user's turn (or function call outputs), not ${role}.`,
          };
        question = text;
      } else
        history.push(
          role === 'user' || role === 'assistant' ? { role, content: text } : { role: 'system', content: text },
        );
      continue;
    }
    const call = FunctionCallItem.safeParse(raw);
    if (call.success) {
      const previous = history.at(-1);
      const toolCall = { id: call.data.call_id, name: call.data.name, arguments: call.data.arguments };
      if (previous?.role === 'assistant') previous.toolCalls = [...(previous.toolCalls ?? []), toolCall];
      else history.push({ role: 'assistant', content: '', toolCalls: [toolCall] });
      continue;
    }
    const output = FunctionCallOutputItem.safeParse(raw);
    if (output.success) {
      const text = partsText(output.data.output);
      history.push({ role: 'tool', toolCallId: output.data.call_id, content: typeof text === 'string' ? text : '' });
      continue;
    }
    return {
      type: 'invalid',
      message: `input[${i}]: a "${raw.type}" item cannot reach an agent; send messages, function calls and their outputs.`,
    };
  }
  if (question === undefined)
    return { type: 'invalid', message: 'input must end with a user message or function call outputs.' };
  return { type: 'start', input: question, history };
}

/** The conversation up to a previous response: its run's history, question and answer. */
async function earlierTurns(runs: RunService, id: string): Promise<RunRecord | string> {
  const match = RESPONSE_ID.exec(id);
  const run = match ? await runs.get(match[1]) : undefined;
  if (!run) return `previous_response_id: no response "${id}" on this server.`;
  if (!isFinished(run.status))
    return `previous_response_id: response "${id}" has not ended (it waits for function call outputs; send them as function_call_output items).`;
  return run;
}

/** The request's function tools and `text.format` as the run keeps them. */
function readResponsesCaller(body: ResponsesBody) {
  const tools = body.tools?.map((t) => ({
    name: t.name ?? '',
    description: t.description ?? undefined,
    parameters: t.parameters ?? undefined,
  }));
  return readCaller(tools, body.text?.format, 'text.format.schema');
}

/** Builds the Response objects and stream events of one answer, numbering its items and events. */
function responseWriter(base: Record<string, unknown>, runId: string) {
  const output: Record<string, unknown>[] = [];
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) => ({ type, sequence_number: sequence++, ...data });
  const message = (text: string, status: string) => ({
    id: `msg_${runId.replaceAll('-', '')}_${output.length}`,
    type: 'message',
    status,
    role: 'assistant',
    content: text === '' && status === 'in_progress' ? [] : [outputText(text)],
  });
  return {
    output,
    event,
    response(status: string, usage?: AnswerUsage, error?: string) {
      const text = output
        .flatMap((item) => (item.type === 'message' ? [(item.content as { text: string }[])[0]?.text ?? ''] : []))
        .join('');
      return {
        ...base,
        status,
        output: structuredClone(output),
        output_text: text,
        error: error ? { code: 'server_error', message: error } : null,
        incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
        usage: usage ? responsesUsage(usage) : null,
      };
    },
    message,
    functionCall(end: Extract<AnswerEnd, { type: 'client_tools' }>, q: (typeof end.calls)[number]) {
      return {
        id: `fc_${runId.replaceAll('-', '')}_${q.id}`,
        type: 'function_call',
        status: 'completed',
        call_id: clientCallId(end.run.id, q),
        name: q.tool,
        arguments: JSON.stringify(q.input ?? {}),
      };
    },
  };
}

function outputText(text: string) {
  return { type: 'output_text', text, annotations: [], logprobs: [] };
}

function responsesUsage(usage: AnswerUsage) {
  return {
    input_tokens: usage.promptTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.completionTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.promptTokens + usage.completionTokens,
    ...(usage.estimated ? { estimated: true } : {}),
  };
}

function endStatus(end: AnswerEnd): 'completed' | 'incomplete' {
  if (end.type === 'client_tools') return 'completed';
  return end.type === 'ended' && end.run?.result?.status === 'done' ? 'completed' : 'incomplete';
}

/**
 * POST /v1/responses: the OpenAI Responses API over an agent (`model` = the agent's name), created or
 * streamed with the API's event sequence, with the caller's function tools (the run waits while the
 * caller runs them: the response ends with `function_call` items, and `function_call_output` items
 * continue it), `text.format` JSON Schema, and `previous_response_id` (the conversation of that
 * response's run goes on). What an agent cannot honour answers 400 naming the field.
 */
export function responsesRoute(app: Hono, runs: RunService): void {
  app.post('/v1/responses', async (c) => {
    const read = await readOpenAiRequest(c, ResponsesBody, unsupportedResponsesField);
    if (!read.ok) return read.response;
    const { request, invalid } = read;
    const caller = readResponsesCaller(request);
    if (!caller.ok) return invalid(caller.message);

    const earlier: Message[] = [];
    if (request.instructions) earlier.push({ role: 'system', content: request.instructions });
    const turn0 = readTurn(request.input, []);
    if (request.previous_response_id && turn0.type !== 'results') {
      const previous = await earlierTurns(runs, request.previous_response_id);
      if (typeof previous === 'string') return invalid(previous);
      earlier.push(...(previous.history ?? []), { role: 'user', content: previous.input });
      earlier.push({ role: 'assistant', content: previous.result?.output ?? '' });
    }
    const turn = turn0.type === 'start' ? readTurn(request.input, earlier) : turn0;
    if (turn.type === 'invalid') return invalid(turn.message);

    const begun = await startOrContinue(c, runs, { agent: request.model, turn, caller: caller.caller });
    if (!begun.ok) return begun.response;
    const { run, continued } = begun;
    const format: TextFormat = request.text?.format ?? { type: 'text' };
    const base = {
      id: `resp_${run.id}${continued ? `_${continued.afterSeq}` : ''}`,
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      model: request.model,
      instructions: request.instructions ?? null,
      previous_response_id: request.previous_response_id ?? null,
      tools: request.tools ?? [],
      tool_choice: 'auto',
      parallel_tool_calls: true,
      text: { format },
      temperature: null,
      top_p: null,
      truncation: 'disabled',
      metadata: {},
    };
    const follow = followOf(caller.caller, continued);
    const writer = responseWriter(base, run.id);
    return request.stream
      ? streamResponse(c, { runs, runId: run.id, follow, writer })
      : createResponse(c, { runs, runId: run.id, follow, writer });
  });
}

interface AnswerCall {
  runs: RunService;
  runId: string;
  follow: ReturnType<typeof followOf>;
  writer: ReturnType<typeof responseWriter>;
}

async function createResponse(c: Context, { runs, runId, follow, writer }: AnswerCall): Promise<Response> {
  const answer = streamRunAnswer(runs, runId, { ...follow, signal: c.req.raw.signal });
  let next = await answer.next();
  let text: string | undefined;
  const close = () => {
    // Redacted as a whole: a secret split across streamed pieces is whole again here.
    if (text !== undefined) writer.output.push(writer.message(redactText(text), 'completed'));
    text = undefined;
  };
  for (; !next.done; next = await answer.next()) {
    if (next.value.start) close();
    text = (text ?? '') + next.value.text;
  }
  close();
  const end = next.value;
  const failed = endFailure(end);
  if (failed || end.type === 'aborted') return runFailed(c, runId, failed ?? 'the request was aborted');
  if (end.type === 'client_tools') for (const q of end.calls) writer.output.push(writer.functionCall(end, q));
  if (end.usage.estimated) c.header(USAGE_ESTIMATED_HEADER, 'true');
  return c.json(writer.response(endStatus(end), end.usage));
}

function streamResponse(c: Context, { runs, runId, follow, writer }: AnswerCall): Response {
  return streamSSE(c, async (sse) => {
    const closed = new AbortController();
    sse.onAbort(() => closed.abort());
    const send = (type: string, data: Record<string, unknown>) =>
      sse.writeSSE({ event: type, data: JSON.stringify(writer.event(type, data)) });
    const initial = writer.response('in_progress');
    await send('response.created', { response: initial });
    await send('response.in_progress', { response: initial });
    // The message being streamed: its index in the output and its text so far.
    let open: { index: number; id: string; text: string } | undefined;
    const part = () => ({ item_id: open?.id, output_index: open?.index, content_index: 0 });
    const closeMessage = async () => {
      if (!open) return;
      const { text } = open;
      await send('response.output_text.done', { ...part(), text, logprobs: [] });
      await send('response.content_part.done', { ...part(), part: outputText(text) });
      const item = writer.message(text, 'completed');
      item.id = open.id;
      writer.output[open.index] = item;
      await send('response.output_item.done', { output_index: open.index, item });
      open = undefined;
    };
    const onDelta = async (delta: AnswerDelta) => {
      if (delta.start) await closeMessage();
      if (!open) {
        const item = writer.message('', 'in_progress');
        open = { index: writer.output.length, id: item.id, text: '' };
        writer.output.push(item);
        await send('response.output_item.added', { output_index: open.index, item });
        await send('response.content_part.added', { ...part(), part: outputText('') });
      }
      open.text += delta.text;
      await send('response.output_text.delta', { ...part(), delta: delta.text, logprobs: [] });
    };
    const answer = streamRunAnswer(runs, runId, { ...follow, signal: closed.signal });
    let next = await answer.next();
    for (; !next.done; next = await answer.next()) await onDelta(next.value);
    await closeMessage();
    const end = next.value;
    if (end.type === 'aborted') return;
    const failed = endFailure(end);
    if (failed) {
      const message = `Agent run ${runId} did not answer: ${failed}`;
      await send('response.failed', { response: writer.response('failed', end.usage, message) });
      return;
    }
    if (end.type === 'client_tools') {
      for (const q of end.calls) {
        const item = writer.functionCall(end, q);
        const index = writer.output.length;
        writer.output.push(item);
        await send('response.output_item.added', {
          output_index: index,
          item: { ...item, status: 'in_progress', arguments: '' },
        });
        await send('response.function_call_arguments.delta', {
          item_id: item.id,
          output_index: index,
          delta: item.arguments,
        });
        await send('response.function_call_arguments.done', {
          item_id: item.id,
          output_index: index,
          name: item.name,
          arguments: item.arguments,
        });
        await send('response.output_item.done', { output_index: index, item });
      }
    }
    const status = endStatus(end);
    await send(status === 'completed' ? 'response.completed' : 'response.incomplete', {
      response: writer.response(status, end.usage),
    });
  });
}
