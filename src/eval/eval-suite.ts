import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError, errorMessage, requireDependency, withoutBom } from '../core/index.js';

const CHECK_NAMES = 'exact, contains, regex, numeric (+ tolerance), predicate, maxSteps, calledTool, status';

/** One check on a case's result. Each is an object with exactly one check key (plus its options). */
export const EvalCheck = z.union(
  [
    z.strictObject({ exact: z.string(), ignoreCase: z.boolean().optional() }),
    z.strictObject({ contains: z.string(), ignoreCase: z.boolean().optional() }),
    z.strictObject({ regex: z.string(), flags: z.string().optional() }),
    z.strictObject({ numeric: z.number(), tolerance: z.number().nonnegative().optional() }),
    z.strictObject({ predicate: z.string().min(1) }),
    z.strictObject({ maxSteps: z.number().int().positive() }),
    z.strictObject({ calledTool: z.string().min(1) }),
    z.strictObject({ status: z.enum(['done', 'max_steps', 'loop_detected', 'aborted', 'failed', 'budget_exceeded']) }),
  ],
  { error: `a check must be exactly one of: ${CHECK_NAMES}` },
);
export type EvalCheck = z.infer<typeof EvalCheck>;

const Protocol = z.enum(['auto', 'native', 'json', 'react']);

/** The agent's setup, which a case sets for itself and a suite for every case. */
const AgentSetup = {
  /** Model spec (a case's is overridden by `--model`). */
  model: z.string().optional(),
  /** Tool kits by name (`calculator`, `files`, `demo`, ...). */
  tools: z.array(z.string()).optional(),
  protocol: Protocol.optional(),
  maxSteps: z.number().int().positive().optional(),
  instructions: z.string().optional(),
};

/** One task: an input, the agent's setup (model, tools, protocol, limits) and the checks its answer must pass. */
export const EvalCase = z.strictObject({
  id: z.string().min(1),
  input: z.string(),
  ...AgentSetup,
  checks: z.array(EvalCheck).min(1),
});
export type EvalCase = z.infer<typeof EvalCase>;

/** A suite file (`suite.yaml`): defaults for every case, then the cases. */
export const EvalSuite = z.strictObject({
  name: z.string().default('eval'),
  ...AgentSetup,
  cases: z.array(EvalCase).min(1),
});
export type EvalSuite = z.infer<typeof EvalSuite>;

/**
 * Parses suite YAML (or JSON) text. A bad suite throws a `ConfigError` naming each bad field by its path
 * (`cases.1.checks.0: a check must be exactly one of ...`).
 */
export function parseSuite(text: string, source = 'suite'): EvalSuite {
  text = withoutBom(text);
  let raw: unknown;
  try {
    // yaml loads with the first suite, not at import: it takes ~100 ms to load.
    raw = requireDependency<typeof import('yaml')>('yaml').parse(text);
  } catch (error) {
    throw new ConfigError({ message: `${source} is not valid YAML: ${errorMessage(error)}` });
  }
  const parsed = EvalSuite.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(top)'}: ${issue.message}`);
    throw new ConfigError({ message: `${source} is not a valid eval suite:\n${problems.join('\n')}` });
  }
  const ids = new Set<string>();
  for (const c of parsed.data.cases) {
    if (ids.has(c.id))
      throw new ConfigError({ message: `${source}: two cases have the id "${c.id}"; ids must be unique.` });
    ids.add(c.id);
  }
  return parsed.data;
}

/** Reads a suite file; `baseDir` is its folder, against which predicate files and scripted models resolve. */
export function loadSuite(path: string): { suite: EvalSuite; baseDir: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError({ message: `Cannot read the eval suite ${path}: ${errorMessage(error)}` });
  }
  return { suite: parseSuite(text, path), baseDir: dirname(resolve(path)) };
}
