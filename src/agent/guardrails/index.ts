export type { GuardedCall, Guardrail, Guardrails, GuardrailVerdict } from './guardrail.js';
export { type ModelJudgeOptions, modelJudge } from './model-judge.js';
