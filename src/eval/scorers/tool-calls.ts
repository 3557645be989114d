import { withoutBom } from '../../core/index.js';
import {
  type ActualCall,
  type AllowedValues,
  checkToolCalls,
  type ExpectedCall,
  type ToolSchema,
} from './check-tool-call.js';
import { readPyJson } from './py-value.js';
import { createScorer, type RunLike, type Scorer } from './scorer.js';

/** An expected call as thinkflow writes it (`{ name, arguments }`) or as the leaderboard does (`{ get_weather: { city: ['Paris'] } }`). */
export type ExpectedCallInput = ExpectedCall | Readonly<Record<string, Readonly<Record<string, AllowedValues>>>>;

/**
 * Expected calls read from JSON text, as the leaderboard's checker reads its answers: with their literals
 * (`5` an int, `5.0` a float), which matters where a list of floats is expected and the answer lists
 * ints. The text is a list of calls in either form, `{ "toolCalls": [...] }`, or a line of the
 * leaderboard's possible answers (`{ "id": ..., "ground_truth": [...] }`).
 *
 * @example
 * toolCalls(readExpectedCalls('[{"array_sort": {"list": [[23, 45, 12]], "order": ["descending"]}}]'));
 */
export function readExpectedCalls(text: string): ExpectedCall[] {
  let value: unknown;
  try {
    value = readPyJson(withoutBom(text));
  } catch (error) {
    throw new Error(`toolCalls: the expected calls are not JSON (${(error as Error).message})`);
  }
  const list = Array.isArray(value)
    ? value
    : value && typeof value === 'object' && Array.isArray((value as { ground_truth?: unknown }).ground_truth)
      ? (value as { ground_truth: ExpectedCallInput[] }).ground_truth
      : value && typeof value === 'object' && Array.isArray((value as { toolCalls?: unknown }).toolCalls)
        ? (value as { toolCalls: ExpectedCallInput[] }).toolCalls
        : undefined;
  if (!list) {
    const flat = text.trim();
    const shown = flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
    throw new Error(
      `toolCalls: the expected calls are a list of calls, { "toolCalls": [...] } or { "ground_truth": [...] } (got ${shown})`,
    );
  }
  return list.map((call) => ({ ...toExpectedCall(call as ExpectedCallInput), exact: true }));
}

/** Options of `toolCalls`. */
export interface ToolCallsOptions {
  /** The tools' parameter schemas: with them, unknown parameters, required ones and types follow the schema. */
  tools?: readonly ToolSchema[];
  /** Calls must come in the expected order (default: any order, as the leaderboard's parallel check). */
  ordered?: boolean;
  name?: string;
}

/**
 * Scores a run's tool calls with the leaderboard's AST-check rules (see `checkToolCall`): 1 when every
 * expected call is matched by exactly one call, 0 with the failed rule as the reason. An empty list
 * expects no call (an irrelevance case). `expected` as JSON text is read with its literals
 * (`readExpectedCalls`). Without `expected`, the case's `expected` is read (a list of calls,
 * `{ toolCalls: [...] }`, or such JSON text). A step's native calls are read from the model's raw argument text
 * (`rawToolCalls`), as the leaderboard reads them; calls of text protocols and of traces, from the
 * parsed input.
 *
 * @example
 * toolCalls([{ name: 'get_weather', arguments: { city: ['Paris', 'Paris, France'], unit: ['celsius', ''] } }])
 */
export function toolCalls(expected?: readonly ExpectedCallInput[] | string, options: ToolCallsOptions = {}): Scorer {
  const given = typeof expected === 'string' ? readExpectedCalls(expected) : expected?.map(toExpectedCall);
  return createScorer({
    name: options.name ?? 'toolCalls',
    score: ({ run, expected: caseExpected }) => {
      const want =
        given ??
        (typeof caseExpected === 'string'
          ? readExpectedCalls(caseExpected)
          : expectedCallsOf(caseExpected).map(toExpectedCall));
      const verdict = checkToolCalls(modelCallsOf(run), want, options);
      return verdict.valid ? { score: 1 } : { score: 0, reason: `${verdict.errorType}: ${verdict.error}` };
    },
  });
}

/** The calls a run's model made: a step's raw native calls when it kept them, else the calls as they ran. */
function modelCallsOf(run: RunLike | undefined): ActualCall[] {
  const calls: ActualCall[] = [];
  for (const step of run?.steps ?? []) {
    const raw = step.rawToolCalls;
    if (raw && raw.length > 0) for (const call of raw) calls.push({ name: call.name, arguments: call.arguments });
    else for (const call of step.toolCalls) calls.push({ name: call.name, arguments: call.input });
  }
  return calls;
}

function expectedCallsOf(value: unknown): readonly ExpectedCallInput[] {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object' && Array.isArray((value as { toolCalls?: unknown }).toolCalls)) {
    return (value as { toolCalls: ExpectedCallInput[] }).toolCalls;
  }
  throw new Error(
    'toolCalls: no expected calls (pass them to the scorer or set the case\'s "expected" to a list of calls)',
  );
}

/** Reads either form of an expected call into `{ name, arguments }`; a lone allowed value becomes a list of one. */
export function toExpectedCall(input: ExpectedCallInput): ExpectedCall {
  const entries = Object.entries(input);
  const named = typeof (input as ExpectedCall).name === 'string';
  const [name, args] = named
    ? [(input as ExpectedCall).name, (input as ExpectedCall).arguments ?? {}]
    : entries.length === 1
      ? (entries[0] as [string, Record<string, AllowedValues>])
      : (() => {
          throw new Error(
            `toolCalls: an expected call is { name, arguments } or { toolName: { param: [values] } } (got ${JSON.stringify(input)})`,
          );
        })();
  const argumentsList: Record<string, AllowedValues> = {};
  for (const [param, allowed] of Object.entries(args))
    argumentsList[param] = Array.isArray(allowed) ? allowed : [allowed];
  return (input as ExpectedCall).exact
    ? { name, arguments: argumentsList, exact: true }
    : { name, arguments: argumentsList };
}
