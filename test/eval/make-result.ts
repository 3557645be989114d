import { emptyStats, type RunResult, type RunStatus, type Step } from '../../src/core/index.js';

/** A RunResult for checks and runner tests: `tools` become one step of calls, then a final step. */
export function makeResult(options: {
  output: string;
  tools?: string[];
  status?: RunStatus;
  steps?: number;
  tokens?: number;
}): RunResult {
  const toolStep: Step = {
    index: 0,
    kind: 'tool_calls',
    raw: '',
    toolCalls: (options.tools ?? []).map((name, i) => ({
      id: `c${i}`,
      name,
      tool: name,
      input: {},
      output: 'ok',
      ok: true,
      durationMs: 1,
    })),
  };
  const count = options.steps ?? (options.tools?.length ? 2 : 1);
  const steps: Step[] = Array.from({ length: count }, (_, i) =>
    i === 0 && options.tools?.length
      ? toolStep
      : { index: i, kind: 'final', raw: options.output, toolCalls: [], answer: options.output },
  );
  return {
    runId: 'r',
    status: options.status ?? 'done',
    output: options.output,
    steps,
    usage: { promptTokens: options.tokens ?? 10, completionTokens: 5, llmCalls: count },
    stats: emptyStats(),
    durationMs: 12,
  };
}
