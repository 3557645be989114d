import { type CacheStore, cachedModel, memoryCacheStore } from '../../cache/index.js';
import { stableJson } from '../../core/index.js';
import { costOf, type Model } from '../../llm/index.js';
import { asciiDigits } from '../run-checks.js';
import { readJson } from './json-match.js';
import { detectLanguage, JUDGE_PROMPTS } from './judge-prompts.js';
import { createScorer, type Scorer } from './scorer.js';

/** Options of `llmJudge`. */
export interface LlmJudgeOptions {
  /** The judge model (any thinkflow `Model`). */
  model: Model;
  /** What a good answer is, in plain words. */
  rubric: string;
  /** Points on the scale, 1..scale; the score is normalised to 0..1. Default 5. */
  scale?: number;
  /** The normalised score at or above which the answer passes. Default 0.5. */
  passAt?: number;
  /** The prompt's language; `auto` (default) picks Chinese when the rubric, input and answer are mostly Chinese. */
  language?: 'en' | 'zh' | 'auto';
  /** Where judge replies are cached (same prompt, same model: no second call). Default: in memory, per judge; `false` turns it off. */
  cache?: CacheStore | false;
  name?: string;
}

const REPLY_SCHEMA = {
  type: 'object',
  properties: { reason: { type: 'string' }, score: { type: 'integer' } },
  required: ['reason', 'score'],
  additionalProperties: false,
};

/**
 * A scorer that asks a model to grade the answer against a rubric: temperature 0, a JSON reply
 * `{ reason, score }` (asked for with the provider's structured output where it has one). Its own cost
 * is reported apart (`costUsd` on the score), replies are cached, and a reply it cannot read throws,
 * which the experiment records as this scorer's error for the case.
 *
 * @example
 * llmJudge({ model: openaiCompatible({ model: 'gpt-4o-mini' }), rubric: 'Answers the question, politely, citing a source.' })
 */
export function llmJudge(options: LlmJudgeOptions): Scorer {
  const scale = options.scale ?? 5;
  const passAt = options.passAt ?? 0.5;
  const model =
    options.cache === false
      ? options.model
      : cachedModel(options.model, { store: options.cache ?? memoryCacheStore() });
  return createScorer({
    name: options.name ?? 'llmJudge',
    score: async ({ input, output, expected }) => {
      const inputText = typeof input === 'string' ? input : stableJson(input);
      const expectedText =
        expected === undefined ? undefined : typeof expected === 'string' ? expected : stableJson(expected);
      const language =
        options.language && options.language !== 'auto'
          ? options.language
          : detectLanguage(options.rubric, inputText, output);
      const prompt = JUDGE_PROMPTS[language];
      const response = await model.generate({
        messages: [
          { role: 'system', content: prompt.system(options.rubric, scale) },
          { role: 'user', content: prompt.user({ input: inputText, output, expected: expectedText }) },
        ],
        temperature: 0,
        responseFormat: { name: 'judgement', schema: REPLY_SCHEMA },
      });
      const usage = response.usage ?? { promptTokens: 0, completionTokens: 0 };
      const verdict = readVerdict(response.text, scale);
      const score = (verdict.points - 1) / (scale - 1);
      return {
        score,
        pass: score >= passAt,
        reason: `${verdict.points}/${scale}: ${verdict.reason}`,
        costUsd: response.cached ? 0 : costOf(options.model.id, usage),
        tokens: usage.promptTokens + usage.completionTokens,
      };
    },
  });
}

/** Reads `{ reason, score }` out of a judge's reply; anything else throws with the reply quoted. */
export function readVerdict(text: string, scale: number): { points: number; reason: string } {
  const value = readJson(text) as { score?: unknown; reason?: unknown } | undefined;
  // A score written as text: its first number ("4", "4/5", "４分").
  const points =
    typeof value?.score === 'string' ? Number(asciiDigits(value.score).match(/-?\d+(?:\.\d+)?/)?.[0]) : value?.score;
  if (typeof points !== 'number' || !Number.isFinite(points) || points < 1 || points > scale) {
    const sample = text.length > 120 ? `${text.slice(0, 120)}…` : text;
    throw new Error(`the judge's reply has no score from 1 to ${scale}: ${JSON.stringify(sample)}`);
  }
  return { points, reason: typeof value?.reason === 'string' ? value.reason : '' };
}
