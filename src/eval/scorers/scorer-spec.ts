import { readFileSync } from 'node:fs';
import { ConfigError, errorMessage } from '../../core/index.js';
import { jsonMatch } from './json-match.js';
import type { Scorer } from './scorer.js';
import { budget, contains, exact, noError, numeric, regex } from './text-scorers.js';
import { toolCalls } from './tool-calls.js';
import { type TrajectoryMode, trajectory } from './trajectory.js';

const SPECS = [
  'noError',
  'exact[:TEXT]',
  'contains[:TEXT]',
  'regex:PATTERN',
  'numeric[:N][±TOLERANCE]',
  'jsonMatch',
  'budget:steps=5,tokens=2000,cost=0.01,latency=3000',
  'toolCalls[:FILE.json]',
  'trajectory:a,b,c[@exact|in-order|any-order|subset]',
];

/**
 * A deterministic scorer from a one-line spec, as `thinkflow eval rescore --scorer` takes them:
 * `noError`, `contains:Paris`, `numeric:42±0.5`, `budget:steps=5,cost=0.01`, `toolCalls:expected.json`,
 * `trajectory:search,fetch@in-order`. Without a value, a scorer compares with the case's `expected`.
 */
export function scorerFromSpec(spec: string): Scorer {
  const colon = spec.indexOf(':');
  const name = colon < 0 ? spec : spec.slice(0, colon);
  const arg = colon < 0 ? undefined : spec.slice(colon + 1);
  switch (name) {
    case 'noError':
      return noError();
    case 'exact':
      return exact(arg);
    case 'contains':
      return contains(arg);
    case 'regex':
      if (!arg) break;
      return regex(arg);
    case 'jsonMatch':
      return jsonMatch();
    case 'numeric': {
      const [value, tolerance] = (arg ?? '').split('±');
      return numeric(value ? Number(value) : undefined, { tolerance: tolerance ? Number(tolerance) : undefined });
    }
    case 'budget':
      return budget(readLimits(arg ?? '', spec));
    case 'toolCalls':
      if (!arg) return toolCalls();
      try {
        return toolCalls(readFileSync(arg, 'utf8'));
      } catch (error) {
        throw new ConfigError({ message: `--scorer ${spec}: ${errorMessage(error)}`, cause: error });
      }
    case 'trajectory': {
      if (!arg) break;
      const [steps, mode] = arg.split('@');
      return trajectory(steps.split(','), { mode: (mode as TrajectoryMode | undefined) ?? 'exact' });
    }
  }
  throw new ConfigError({ message: `Unknown scorer "${spec}". Scorers: ${SPECS.join(', ')}.` });
}

function readLimits(text: string, spec: string) {
  const keys: Record<string, 'maxSteps' | 'maxTokens' | 'maxCostUsd' | 'maxLatencyMs'> = {
    steps: 'maxSteps',
    tokens: 'maxTokens',
    cost: 'maxCostUsd',
    latency: 'maxLatencyMs',
  };
  const limits: Partial<Record<'maxSteps' | 'maxTokens' | 'maxCostUsd' | 'maxLatencyMs', number>> = {};
  for (const part of text.split(',').filter(Boolean)) {
    const [key, value] = part.split('=');
    if (!keys[key] || !Number.isFinite(Number(value))) {
      throw new ConfigError({
        message: `Bad budget "${spec}": use budget:steps=5,tokens=2000,cost=0.01,latency=3000.`,
      });
    }
    limits[keys[key]] = Number(value);
  }
  return limits;
}
