import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError, errorMessage } from '../../core/index.js';
import {
  budget,
  contains,
  exact,
  jsonMatch,
  llmJudge,
  noError,
  numeric,
  regex,
  type Scorer,
  scorerFromSpec,
  toolCalls,
  trajectory,
} from '../../eval/index.js';
import { resolveModel } from '../../llm/index.js';
import type { AgentScoring, OnlineScoringConfig } from '../runs/node.js';

/**
 * One scorer of an agent in a YAML/JSON config: a one-line spec (`noError`, `contains:Paris`,
 * `budget:steps=5`), a library scorer by name with its value and options
 * (`{ name: llmJudge, options: { model: openai:gpt-4o-mini, rubric: … } }`), or a module exporting
 * scorers (`{ module: ./scorers.ts, export: polite }`; without `export`, its default export, a scorer or a list).
 */
export const ScorerEntry = z.union([
  z.string().min(1),
  z.strictObject({
    name: z.enum([
      'noError',
      'exact',
      'contains',
      'regex',
      'numeric',
      'jsonMatch',
      'budget',
      'toolCalls',
      'trajectory',
      'llmJudge',
    ]),
    value: z.unknown().optional(),
    options: z.record(z.string(), z.unknown()).optional(),
  }),
  z.strictObject({ module: z.string().min(1), export: z.string().min(1).optional() }),
]);
export type ScorerEntry = z.infer<typeof ScorerEntry>;

/** A library scorer from its name, value and options. */
function libraryScorer(entry: Extract<ScorerEntry, { name: string }>): Scorer {
  const { value } = entry;
  const options = (entry.options ?? {}) as Record<string, never>;
  switch (entry.name) {
    case 'noError':
      return noError(options);
    case 'exact':
      return exact(value as string | undefined, options);
    case 'contains':
      return contains(value as string | string[] | undefined, options);
    case 'regex':
      return regex(String(value), options);
    case 'numeric':
      return numeric(value as number | undefined, options);
    case 'jsonMatch':
      return jsonMatch(options);
    case 'budget':
      return budget(options);
    case 'toolCalls':
      return toolCalls(value as never, options);
    case 'trajectory':
      return trajectory(value as never, options);
    case 'llmJudge': {
      const { model, ...rest } = entry.options ?? {};
      if (typeof model !== 'string' || typeof rest.rubric !== 'string') {
        throw new Error('llmJudge needs options.model (a model spec) and options.rubric');
      }
      return llmJudge({ ...(rest as { rubric: string }), model: resolveModel(model) });
    }
  }
}

/** The YAML agent's scorers that need no import (specs and library names); module entries are left for `loadScorerModules`. */
export function agentScoringFromData(
  entries: readonly ScorerEntry[],
  sampleRate: number | undefined,
  where: string,
): AgentScoring & { modules: { module: string; export?: string }[] } {
  const scorers: Scorer[] = [];
  const modules: { module: string; export?: string }[] = [];
  for (const [index, entry] of entries.entries()) {
    if (typeof entry === 'object' && 'module' in entry) {
      modules.push(entry);
      continue;
    }
    try {
      scorers.push(typeof entry === 'string' ? scorerFromSpec(entry) : libraryScorer(entry));
    } catch (error) {
      throw new ConfigError({ message: `${where}: scorers.${index}: ${errorMessage(error)}` });
    }
  }
  return { scorers, sampleRate, modules };
}

function isScorer(value: unknown): value is Scorer {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Scorer).name === 'string' &&
    typeof (value as Scorer).score === 'function'
  );
}

/**
 * Imports the scorer modules a data config names (relative to its folder) and adds their scorers to
 * their agent's: the export named (or the default) must be a scorer or a list of scorers.
 */
export async function loadScorerModules(
  scoring: OnlineScoringConfig,
  pending: Record<string, { module: string; export?: string }[]>,
  ctx: { root: string; file: string; importModule: (file: string) => Promise<Record<string, unknown>> },
): Promise<void> {
  for (const [agent, modules] of Object.entries(pending)) {
    for (const { module, export: name = 'default' } of modules) {
      const where = `${ctx.file}: agent "${agent}": scorer module ${module}`;
      let loaded: Record<string, unknown>;
      try {
        loaded = await ctx.importModule(resolve(ctx.root, module));
      } catch (error) {
        throw new ConfigError({ message: `${where} could not be imported: ${errorMessage(error)}`, cause: error });
      }
      const value = loaded[name];
      const list = Array.isArray(value) ? value : [value];
      if (value === undefined || !list.every(isScorer)) {
        throw new ConfigError({
          message: `${where}: its export "${name}" must be a scorer (createScorer({ name, score })) or a list of scorers.`,
        });
      }
      const own = scoring.agents[agent];
      scoring.agents[agent] = { ...own, scorers: [...own.scorers, ...list] };
    }
  }
}
