// Agents working together: handoffs, and an agent as another's tool.
export { type AsToolOptions, agentAsTool, type RunnableAgent, tighter } from './agent-as-tool.js';
export { handoffTools, runHandoff } from './handoff-tools.js';
