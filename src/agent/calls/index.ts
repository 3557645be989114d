// The calls a step makes: tools, built-ins (recall, tool search, skills), guardrails on calls, step records.
export { guardText } from './apply-guardrails.js';
export { observationLimitFor, observationTokensFor } from './observation-limit-for.js';
export { clearedStep, RECALL_RESULT, recallResultTool } from './recall-result.js';
export { type RunBuiltin, registerOffered, runBuiltins, withBuiltins } from './run-builtins.js';
export { createRunTools, endedByTool, runStepCalls, runStepTools } from './run-tools.js';
export { foundTools, searchToolsBuiltin } from './search-tools-tool.js';
export { activeSkill, allowedBy, skillBuiltins } from './skill-builtins.js';
export { handoffCall, joinOutputs, skippedCall } from './step-records.js';
