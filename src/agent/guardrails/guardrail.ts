/** What a guardrail decided: let it through, stop it, or replace it. */
export type GuardrailVerdict<T> =
  | { action: 'allow' }
  | { action: 'block'; reason: string }
  | { action: 'rewrite'; value: T; reason: string };

/** A tool call as the tool-call guardrails see it. */
export interface GuardedCall {
  tool: string;
  input: unknown;
}

/** A named check on the run's input, its final output, or each tool call. A plain function or a model judge. */
export interface Guardrail<T> {
  name: string;
  check(value: T, context: { runId: string; signal: AbortSignal }): GuardrailVerdict<T> | Promise<GuardrailVerdict<T>>;
}

/** The agent's guardrails by stage. They run in order; the first block wins, rewrites chain. */
export interface Guardrails {
  input?: Guardrail<string>[];
  output?: Guardrail<string>[];
  toolCall?: Guardrail<GuardedCall>[];
}
