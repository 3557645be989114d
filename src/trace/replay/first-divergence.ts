import { type AgentEvent, plural, stableJson } from '../../core/index.js';
import { summarizeTrace, type TraceStep } from '../view/summarize-trace.js';
import { clip, compareRequest, type Divergence } from './compare-request.js';

/**
 * Compares two runs' events step by step (model requests, model replies, tool calls and their
 * outputs, final answers), then their step counts and final status, and returns the first
 * difference. Run ids and timings are not compared.
 *
 * @example
 * const diff = firstDivergence(readTrace('golden.jsonl'), newEvents);
 * if (diff) console.log(`step ${diff.step}: ${diff.message}`);
 */
export function firstDivergence(
  recorded: readonly AgentEvent[],
  replayed: readonly AgentEvent[],
): Divergence | undefined {
  const a = summarizeTrace(recorded);
  const b = summarizeTrace(replayed);
  const count = Math.min(a.steps.length, b.steps.length);
  for (let i = 0; i < count; i++) {
    const found = compareStep(a.steps[i], b.steps[i]);
    if (found) return found;
  }
  if (a.steps.length !== b.steps.length) {
    // Steps are numbered from 0: the first step only one of the runs has is step `count`.
    return {
      step: count,
      kind: 'steps',
      message: `the recorded run has ${plural(a.steps.length, 'step')}, the new run ${b.steps.length}`,
      expected: String(a.steps.length),
      actual: String(b.steps.length),
    };
  }
  const eStatus = a.end?.status ?? 'unfinished';
  const aStatus = b.end?.status ?? 'unfinished';
  if (eStatus !== aStatus || (a.end?.output ?? '') !== (b.end?.output ?? '')) {
    return {
      step: count,
      kind: 'status',
      message: eStatus !== aStatus ? 'the run ended with another status' : 'the run ended with another output',
      expected: `${eStatus}: ${clip(a.end?.output ?? '')}`,
      actual: `${aStatus}: ${clip(b.end?.output ?? '')}`,
    };
  }
  return undefined;
}

function compareStep(e: TraceStep, a: TraceStep): Divergence | undefined {
  const step = e.step;
  const calls = Math.max(e.modelCalls.length, a.modelCalls.length);
  for (let i = 0; i < calls; i++) {
    const ec = e.modelCalls[i];
    const ac = a.modelCalls[i];
    if (!ec || !ac) {
      return {
        step,
        kind: 'extra_call',
        message: `the step made ${e.modelCalls.length} model calls before, ${a.modelCalls.length} now`,
      };
    }
    if (ec.request && ac.request) {
      const found = compareRequest(step, ec.request, ac.request);
      if (found) return found;
    }
    const eReply = replyText(ec.response);
    const aReply = replyText(ac.response);
    if (eReply !== aReply)
      return {
        step,
        kind: 'model_response',
        message: 'the model replied differently',
        expected: clip(eReply),
        actual: clip(aReply),
      };
  }
  const tools = Math.max(e.tools.length, a.tools.length);
  for (let i = 0; i < tools; i++) {
    const et = e.tools[i];
    const at = a.tools[i];
    const eCall = et ? `${et.tool} ${stableJson(et.input)}` : '(none)';
    const aCall = at ? `${at.tool} ${stableJson(at.input)}` : '(none)';
    if (eCall !== aCall)
      return {
        step,
        kind: 'tool_call',
        message: `tool call ${i + 1} differs`,
        expected: clip(eCall),
        actual: clip(aCall),
      };
    const eOut = `${et?.ok === false ? 'error: ' : ''}${et?.error ?? et?.output ?? ''}`;
    const aOut = `${at?.ok === false ? 'error: ' : ''}${at?.error ?? at?.output ?? ''}`;
    if (eOut !== aOut)
      return {
        step,
        kind: 'tool_output',
        message: `${at?.tool} returned something else`,
        expected: clip(eOut),
        actual: clip(aOut),
      };
  }
  if ((e.final ?? '') !== (a.final ?? '')) {
    return {
      step,
      kind: 'final',
      message: 'the final answer differs',
      expected: clip(e.final ?? '(none)'),
      actual: clip(a.final ?? '(none)'),
    };
  }
  return undefined;
}

function replyText(response: TraceStep['modelCalls'][number]['response']): string {
  if (!response) return '(no reply)';
  const calls = response.toolCalls?.length ? ` ${stableJson(response.toolCalls)}` : '';
  return `${response.text}${calls}`;
}
