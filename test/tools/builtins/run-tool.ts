import type { AnyTool, ToolContext } from '../../../src/tools/index.js';

/** A ToolContext for calling a built-in tool directly in tests (approvals granted; the executor is not under test here). */
export function testContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  const noop = () => {};
  return {
    signal,
    runId: 'run_test',
    callId: 'call_test',
    logger: { debug: noop, info: noop, warn: noop, error: noop },
    approve: async () => true,
  };
}

/** Validates the input with the tool's own schema, then runs it: what the executor does, minus retries. */
export async function runTool(tool: AnyTool, input: unknown, signal?: AbortSignal): Promise<unknown> {
  const parsed = tool.parse(input);
  if (!parsed.ok) throw new Error(`invalid input: ${JSON.stringify(parsed.issues)}`);
  return tool.run(parsed.value, testContext(signal));
}

/** Finds a tool by name in a kit, failing loudly when it is missing. */
export function pick(tools: AnyTool[], name: string): AnyTool {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} in [${tools.map((t) => t.name).join(', ')}]`);
  return tool;
}
