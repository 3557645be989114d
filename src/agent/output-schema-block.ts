import { z } from 'zod';
import type { Language } from '../protocols/index.js';

/** The prompt section that tells the model the shape its final answer must have. */
export function outputSchemaBlock(schema: z.ZodType, language: Language): string {
  const json = JSON.stringify(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));
  return language === 'zh'
    ? `最终答案必须是符合以下 JSON Schema 的 JSON：${json}`
    : `Your final answer must be JSON that matches this JSON Schema: ${json}`;
}
