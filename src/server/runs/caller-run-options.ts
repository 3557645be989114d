import { z } from 'zod';
import type { RunOptions } from '../../agent/index.js';
import { ConfigError } from '../../core/index.js';
import { type AnyTool, jsonSchemaTool } from '../../tools/index.js';
import type { CallerOptions, QuestionBox } from '../records/index.js';

/**
 * The run options a caller's request adds: its client-side tools, each of which pauses the run as a
 * `client_tool` question until the caller posts the tool's result (the answer's text is the output),
 * and the JSON Schema the final answer must match, read into the zod schema the loop validates with.
 */
export function callerRunOptions(
  caller: CallerOptions | undefined,
  box: QuestionBox,
): Pick<RunOptions, 'tools' | 'outputSchema'> {
  if (!caller) return {};
  const options: Pick<RunOptions, 'tools' | 'outputSchema'> = {};
  if (caller.tools?.length) options.tools = caller.tools.map((tool) => clientTool(tool, box));
  if (caller.outputSchema) options.outputSchema = schemaOf(caller.outputSchema.schema);
  return options;
}

function clientTool(spec: NonNullable<CallerOptions['tools']>[number], box: QuestionBox): AnyTool {
  return jsonSchemaTool({
    name: spec.name,
    description: spec.description ?? '',
    parameters: spec.parameters ?? { type: 'object', properties: {} },
    // The caller answers when it likes (its next request): no time limit, and never run twice by a retry.
    timeoutMs: 0,
    retries: 0,
    run: async (input, ctx) => {
      const answer = await box.ask({ kind: 'client_tool', tool: spec.name, callId: ctx.callId, input });
      if (ctx.signal.aborted) throw new Error('The run stopped before the client returned the tool result.');
      return answer.text ?? '';
    },
  });
}

/** A JSON Schema as a zod schema; one zod cannot read is refused, so the answer is never left unchecked. */
export function schemaOf(schema: Record<string, unknown>): z.ZodType {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw new ConfigError({
      message: `The output JSON Schema cannot be read (${error instanceof Error ? error.message : String(error)}); send a plain JSON Schema object.`,
    });
  }
}
