import type { ToolSpec } from '../../../core/index.js';
import { type GrammarSchema, toGrammarSchema } from './to-grammar-schema.js';

/** The `action` that ends a run in the json protocol. */
export const FINAL_ACTION = 'final_answer';

/**
 * The JSON Schema of one json-protocol reply: `{thought, action, action_input}`, one branch per
 * tool (so `action_input` must match that tool's schema) plus the `final_answer` branch. With
 * `tools` undefined (the caller did not send specs) only the shape is fixed: any action name, and
 * an object or a non-empty string as input.
 */
export function replySchema(tools: readonly ToolSpec[] | undefined): GrammarSchema {
  if (tools === undefined) {
    return {
      type: 'object',
      properties: {
        thought: { type: 'string' },
        action: { type: 'string', minLength: 1 },
        action_input: {
          oneOf: [
            { type: 'object', additionalProperties: true },
            { type: 'string', minLength: 1 },
          ],
        },
      },
      required: ['thought', 'action', 'action_input'],
      additionalProperties: false,
    };
  }
  const branch = (action: string, input: GrammarSchema): GrammarSchema => ({
    type: 'object',
    properties: { thought: { type: 'string' }, action: { const: action }, action_input: input },
    required: ['thought', 'action', 'action_input'],
    additionalProperties: false,
  });
  const branches = [
    ...tools.map((tool) => branch(tool.name, toGrammarSchema(tool.parameters))),
    branch(FINAL_ACTION, { type: 'string', minLength: 1 }),
  ];
  return branches.length === 1 ? branches[0] : { oneOf: branches };
}
