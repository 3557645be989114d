import { z } from 'zod';
import type { ResponseFormat } from '../../core/index.js';
import type { Language } from '../../protocols/index.js';

/** The prompt section that tells the model the shape its final answer must have. */
export function outputSchemaBlock(schema: z.ZodType, language: Language): string {
  const json = JSON.stringify(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));
  return language === 'zh'
    ? `最终答案必须是符合以下 JSON Schema 的 JSON：${json}`
    : `Your final answer must be JSON that matches this JSON Schema: ${json}`;
}

/**
 * The output schema as a provider's structured-output request (native protocol only). Not strict:
 * OpenAI's strict mode rejects schemas with optional properties, which zod schemas often have, and
 * the loop validates the answer against the schema anyway.
 */
export function outputResponseFormat(schema: z.ZodType): ResponseFormat {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema: _dialect, ...rest } = json;
  return { name: 'final_answer', schema: rest, strict: false };
}
