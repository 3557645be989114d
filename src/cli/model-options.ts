import { type Command, InvalidArgumentError, Option } from 'commander';
import type { ModelRequest } from '../core/index.js';
import type { Model } from '../llm/index.js';

/** The model flags `run` and `chat` share. */
export interface ModelFlags {
  temperature?: number;
  maxTokens?: number;
  /** `-O key=value`, collected. */
  option?: Record<string, unknown>;
}

/** A commander parser for a number in [min, max]; a bad value is a usage error (exit 2). */
export function numberIn(name: string, min: number, max: number, whole = false): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max || (whole && !Number.isInteger(n))) {
      const range = max === Number.POSITIVE_INFINITY ? `at least ${min}` : `from ${min} to ${max}`;
      throw new InvalidArgumentError(
        `${name} must be ${whole ? 'a whole number' : 'a number'} ${range} (got "${value}").`,
      );
    }
    return n;
  };
}

/** Collects `-O key=value` into an object; the value is read as JSON when it parses (`0.9`, `true`, `["\n"]`). */
export function collectProviderOption(pair: string, previous: Record<string, unknown> = {}): Record<string, unknown> {
  const eq = pair.indexOf('=');
  const key = eq < 0 ? '' : pair.slice(0, eq).trim();
  if (!key) throw new InvalidArgumentError(`expected key=value, e.g. -O top_p=0.9 (got "${pair}").`);
  const raw = pair.slice(eq + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // Not JSON: the text itself, as `-O user=alice` means.
  }
  return { ...previous, [key]: value };
}

/** Adds `--temperature`, `--max-tokens` and `-O key=value` to a command. */
export function addModelOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--temperature <t>', 'sampling temperature, 0 to 2').argParser(numberIn('--temperature', 0, 2)),
    )
    .addOption(
      new Option('--max-tokens <n>', 'most tokens per model reply').argParser(
        numberIn('--max-tokens', 1, Number.POSITIVE_INFINITY, true),
      ),
    )
    .addOption(
      new Option(
        '-O, --option <key=value>',
        'a provider parameter, repeatable (e.g. -O top_p=0.9 -O seed=7)',
      ).argParser(collectProviderOption),
    );
}

/** The model with `temperature` and `maxTokens` set on every request that does not set its own. */
export function withRequestDefaults(model: Model, flags: Pick<ModelFlags, 'temperature' | 'maxTokens'>): Model {
  if (flags.temperature === undefined && flags.maxTokens === undefined) return model;
  const fill = (request: ModelRequest): ModelRequest => ({
    ...request,
    temperature: request.temperature ?? flags.temperature,
    maxTokens: request.maxTokens ?? flags.maxTokens,
  });
  return {
    id: model.id,
    capabilities: model.capabilities,
    contextWindow: model.contextWindow,
    generate: (request) => model.generate(fill(request)),
    stream: (request) => model.stream(fill(request)),
  };
}
