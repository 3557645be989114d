import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { AnswerPart } from '../../../protocols/index.js';
import { type A2aMessage, type A2aResult, type A2aTaskState, toV1StreamResponse } from '../../../tools/index.js';
import { followAnswerParts } from '../../records/index.js';
import type { A2aContext, Begun, RpcId } from './a2a-context.js';
import { settledQuestion } from './a2a-settled.js';
import { toTask } from './a2a-task.js';

/** Where one stream writes: its JSON-RPC id, its protocol version and its task. */
interface TaskStream {
  ctx: A2aContext;
  runId: string;
  send(result: A2aResult): Promise<void>;
  status(state: A2aTaskState, final: boolean, message?: A2aMessage): Promise<void>;
  /** The answer streamed so far: chunks sent, the text segment they came from, whether the task is working. */
  answer: { chunks: number; segment?: string; working: boolean };
}

/**
 * `message/stream`: the task (or, when it continues, a `working` status), then its status and the answer
 * text as they come, until it ends or asks for input.
 */
export function streamTask(ctx: A2aContext, c: Context, rpc: { id: RpcId; v1: boolean }, begun: Begun): Response {
  const { runId } = begun;
  return streamSSE(c, async (sse) => {
    let open = true;
    sse.onAbort(() => {
      open = false;
    });
    const out = taskStream(ctx, sse, rpc, begun);
    const first = await ctx.runs.get(runId);
    if (!first) return;
    if (begun.continued) await out.status('working', false);
    else await out.send({ ...toTask(ctx.book, first), status: { state: 'submitted', timestamp: now() } });
    for await (const part of followAnswerParts(ctx.runs, begun, () => !open))
      if ((await streamPart(out, part)) === 'end') return;
  });
}

const now = () => new Date().toISOString();

function taskStream(ctx: A2aContext, sse: SSEStreamingApi, rpc: { id: RpcId; v1: boolean }, begun: Begun): TaskStream {
  const { runId } = begun;
  const contextId = ctx.book.contextOf(runId);
  const send = (result: A2aResult) =>
    sse.writeSSE({
      data: JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result: rpc.v1 ? toV1StreamResponse(result) : result }),
    });
  return {
    ctx,
    runId,
    send,
    status: (state, final, message) =>
      send({
        kind: 'status-update',
        taskId: runId,
        contextId,
        status: { state, timestamp: now(), ...(message ? { message } : {}) },
        final,
      }),
    answer: { chunks: 0, working: begun.continued },
  };
}

/** Writes what one answer part means for the task; `end` once the task ended or asks for input. */
async function streamPart(out: TaskStream, part: AnswerPart): Promise<'end' | undefined> {
  const { ctx, runId, answer } = out;
  const contextId = ctx.book.contextOf(runId);
  if (!answer.working && part.type === 'step_start') {
    answer.working = true;
    await out.status('working', false);
  }
  if (part.type === 'text_delta') {
    // The answer streams as one artifact: its text as it comes, segments apart by a blank line.
    const lead = answer.chunks > 0 && answer.segment !== part.id ? '\n\n' : '';
    answer.segment = part.id;
    await out.send({
      kind: 'artifact-update',
      taskId: runId,
      contextId,
      artifact: { artifactId: 'answer', name: 'answer', parts: [{ kind: 'text', text: lead + part.text }] },
      append: answer.chunks > 0,
      lastChunk: false,
    });
    answer.chunks += 1;
  }
  if (part.type === 'question') {
    const run = await settledQuestion(ctx.runs, runId);
    const task = run ? toTask(ctx.book, run) : undefined;
    await out.status('input-required', true, task?.status.message);
    return 'end';
  }
  if (part.type === 'run_end') {
    const run = await ctx.runs.wait(runId);
    if (!run) return 'end';
    const task = toTask(ctx.book, run);
    // The final answer replaces what streamed: the same artifact a blocking message/send returns.
    if (task.artifacts)
      await out.send({
        kind: 'artifact-update',
        taskId: runId,
        contextId,
        artifact: task.artifacts[0],
        append: false,
        lastChunk: true,
      });
    await out.status(task.status.state, true, task.status.message);
    return 'end';
  }
  return undefined;
}
