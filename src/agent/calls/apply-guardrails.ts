import type { ReadToolCall, ToolCallRecord } from '../../core/index.js';
import type { GuardedCall, Guardrail } from '../guardrails/index.js';
import type { StopReason } from '../guards/index.js';
import { event, type RunScope } from '../run/index.js';

type Stage = 'input' | 'output' | 'tool_call';

/** Runs a stage's guardrails over a value: the first block stops, rewrites chain. Each trip is an event. */
async function runGuardrails<T>(
  scope: RunScope,
  guards: Guardrail<T>[],
  stage: Stage,
  value: T,
): Promise<{ value: T; blocked?: { guardrail: string; reason: string } }> {
  const { state, signal, emit } = scope;
  let current = value;
  for (const guard of guards) {
    const verdict = await guard.check(current, { runId: state.runId, signal });
    if (verdict.action === 'allow') continue;
    emit(
      event(state, 'guardrail_trip', { guardrail: guard.name, stage, action: verdict.action, reason: verdict.reason }),
    );
    if (verdict.action === 'block')
      return { value: current, blocked: { guardrail: guard.name, reason: verdict.reason } };
    current = verdict.value;
  }
  return { value: current };
}

type GuardedText = { text: string; stop?: StopReason };

/**
 * Checks the run's input or final output; a block ends the run `failed` with the guardrail's reason.
 * Without guardrails the text comes back as it is, not as a promise (two fewer per run; docs/loop.md).
 */
export function guardText(
  scope: RunScope,
  guards: Guardrail<string>[] | undefined,
  stage: 'input' | 'output',
  text: string,
): GuardedText | Promise<GuardedText> {
  if (!guards?.length) return { text };
  return guardedText(scope, guards, stage, text);
}

async function guardedText(
  scope: RunScope,
  guards: Guardrail<string>[],
  stage: 'input' | 'output',
  text: string,
): Promise<GuardedText> {
  const result = await runGuardrails(scope, guards, stage, text);
  if (!result.blocked) return { text: result.value };
  const { guardrail, reason } = result.blocked;
  return {
    text: result.value,
    stop: {
      status: 'failed',
      code: `guardrail_${stage}`,
      message: `The ${stage} was blocked by guardrail "${guardrail}": ${reason}`,
    },
  };
}

/** Checks each tool call: blocked calls become observations (the run goes on), rewritten ones run with the new input. */
export async function guardToolCalls(
  scope: RunScope,
  guards: Guardrail<GuardedCall>[],
  calls: ReadToolCall[],
): Promise<{ allowed: ReadToolCall[]; blocked: ToolCallRecord[] }> {
  const allowed: ReadToolCall[] = [];
  const blocked: ToolCallRecord[] = [];
  for (const call of calls) {
    const result = await runGuardrails(scope, guards, 'tool_call', { tool: call.name, input: parsed(call.input) });
    if (result.blocked) {
      const output = `The call to ${call.name} was blocked by guardrail "${result.blocked.guardrail}": ${result.blocked.reason}. Do not retry it; choose another way or answer.`;
      blocked.push({
        id: call.id,
        name: call.name,
        input: call.input,
        output,
        ok: false,
        error: output,
        durationMs: 0,
      });
    } else {
      allowed.push({ id: call.id, name: call.name, input: result.value.input });
    }
  }
  return { allowed, blocked };
}

/** Guardrails see arguments as an object when the model sent JSON text. */
function parsed(input: unknown): unknown {
  if (typeof input !== 'string' || !/^\s*[[{]/.test(input)) return input;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}
