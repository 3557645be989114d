import type { Model } from '../../llm/index.js';
import type { Guardrail } from './guardrail.js';

export interface ModelJudgeOptions {
  model: Model;
  /** What is not allowed, in plain words (e.g. "medical advice" or "personal data of third parties"). */
  criteria: string;
  name?: string;
}

/**
 * A guardrail that asks a model whether a text breaks the criteria. The judge answers `ALLOW` or
 * `BLOCK: reason`; anything else is treated as allow, with the reply kept as the reason, so a
 * confused judge never blocks silently.
 */
export function modelJudge(options: ModelJudgeOptions): Guardrail<string> {
  return {
    name: options.name ?? 'model_judge',
    async check(text, { signal }) {
      const response = await options.model.generate({
        messages: [
          {
            role: 'system',
            content: `You are a strict content judge. Block text that contains: ${options.criteria}. Reply with exactly "ALLOW" or "BLOCK: <short reason>".`,
          },
          { role: 'user', content: text },
        ],
        signal,
      });
      const verdict = response.text.trim();
      const block = /^\**\s*block\b[\s:*-]*(.*)$/is.exec(verdict);
      return block ? { action: 'block', reason: block[1].trim() || 'blocked by the judge' } : { action: 'allow' };
    },
  };
}
