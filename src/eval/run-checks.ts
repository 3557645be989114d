import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, errorMessage, plural, type RunResult } from '../core/index.js';
import type { EvalCase, EvalCheck } from './eval-suite.js';

/** One check's verdict. */
export interface CheckResult {
  /** The check as written, e.g. `contains "4"`. */
  check: string;
  pass: boolean;
  /** Why it failed. */
  message?: string;
}

/**
 * What a predicate file exports (default export or `check`): user code, not model output.
 * It returns true to pass, false or a string (the reason) to fail.
 */
export type EvalPredicate = (
  output: string,
  result: RunResult,
  testCase: EvalCase,
) => boolean | string | Promise<boolean | string>;

export interface RunChecksOptions {
  /** Folder predicate paths are relative to. */
  baseDir: string;
  /** Loads predicate modules (cached per path). Default: a dynamic import of the file. */
  loadPredicate?: (path: string) => Promise<EvalPredicate>;
}

/** Runs every check of a case against a run's result. Never throws for a failed check. */
export async function runChecks(
  testCase: EvalCase,
  result: RunResult,
  options: RunChecksOptions,
): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  for (const check of testCase.checks) out.push(await runCheck(check, testCase, result, options));
  return out;
}

async function runCheck(
  check: EvalCheck,
  testCase: EvalCase,
  result: RunResult,
  options: RunChecksOptions,
): Promise<CheckResult> {
  const output = result.output;
  const verdict = (label: string, pass: boolean, why: string): CheckResult =>
    pass ? { check: label, pass } : { check: label, pass, message: why };
  const fold = (text: string, ignoreCase?: boolean) => (ignoreCase ? text.toLowerCase() : text);
  if ('exact' in check) {
    const pass = fold(output.trim(), check.ignoreCase) === fold(check.exact.trim(), check.ignoreCase);
    return verdict(`exact ${JSON.stringify(check.exact)}`, pass, `output was ${quote(output)}`);
  }
  if ('contains' in check) {
    const pass = fold(output, check.ignoreCase).includes(fold(check.contains, check.ignoreCase));
    return verdict(`contains ${JSON.stringify(check.contains)}`, pass, `output was ${quote(output)}`);
  }
  if ('regex' in check) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(check.regex, check.flags);
    } catch (error) {
      return { check: `regex ${check.regex}`, pass: false, message: `bad regex: ${errorMessage(error)}` };
    }
    const pass = pattern.test(output);
    return verdict(`regex /${check.regex}/${check.flags ?? ''}`, pass, `output was ${quote(output)}`);
  }
  if ('numeric' in check) {
    const tolerance = check.tolerance ?? 1e-9;
    const found = lastNumber(output);
    const pass = found !== undefined && Math.abs(found - check.numeric) <= tolerance;
    const why = found === undefined ? `no number in ${quote(output)}` : `got ${found}`;
    return verdict(`numeric ${check.numeric} ± ${tolerance}`, pass, why);
  }
  if ('maxSteps' in check) {
    return verdict(
      `maxSteps ${check.maxSteps}`,
      result.steps.length <= check.maxSteps,
      `took ${plural(result.steps.length, 'step')}`,
    );
  }
  if ('calledTool' in check) {
    const called = toolsCalled(result);
    return verdict(
      `calledTool ${check.calledTool}`,
      called.includes(check.calledTool),
      `called ${called.join(', ') || 'no tool'}`,
    );
  }
  if ('status' in check) {
    return verdict(`status ${check.status}`, result.status === check.status, `status was ${result.status}`);
  }
  return predicateCheck(check.predicate, testCase, result, options);
}

async function predicateCheck(
  file: string,
  testCase: EvalCase,
  result: RunResult,
  options: RunChecksOptions,
): Promise<CheckResult> {
  const label = `predicate ${file}`;
  const path = isAbsolute(file) ? file : resolve(options.baseDir, file);
  const predicate = await (options.loadPredicate ?? importPredicate)(path);
  try {
    const answer = await predicate(result.output, result, testCase);
    if (answer === true) return { check: label, pass: true };
    return { check: label, pass: false, message: typeof answer === 'string' ? answer : 'the predicate returned false' };
  } catch (error) {
    return { check: label, pass: false, message: `the predicate threw: ${errorMessage(error)}` };
  }
}

const loaded = new Map<string, Promise<EvalPredicate>>();

/** Imports a predicate module once per path; its default export (or `check`) must be a function. */
export function importPredicate(path: string): Promise<EvalPredicate> {
  let found = loaded.get(path);
  if (!found) {
    found = import(pathToFileURL(path).href).then(
      (mod: { default?: unknown; check?: unknown }) => {
        const fn = typeof mod.default === 'function' ? mod.default : mod.check;
        if (typeof fn !== 'function') {
          throw new ConfigError({
            message: `The predicate file ${path} must export a function (export default (output, result) => boolean).`,
          });
        }
        return fn as EvalPredicate;
      },
      (error: unknown) => {
        throw new ConfigError({
          message: `Cannot load the predicate file ${path}: ${errorMessage(error)}`,
          cause: error,
        });
      },
    );
    loaded.set(path, found);
  }
  return found;
}

/** The names of the tools a run called, in order, without repeats. */
export function toolsCalled(result: RunResult): string[] {
  const names = result.steps.flatMap((step) => step.toolCalls.map((call) => call.tool ?? call.name));
  return [...new Set(names)];
}

/** `text` with full-width digits, point and minus, and the minus sign `−`, as ASCII (`４２` → `42`). */
export function asciiDigits(text: string): string {
  return text.replace(/[\uff10-\uff19\uff0e\uff0d\u2212]/g, (c) =>
    c === '\uff0e' ? '.' : c === '\uff0d' || c === '\u2212' ? '-' : String.fromCharCode(c.charCodeAt(0) - 0xff10 + 48),
  );
}

/**
 * The last number written in `text` (`1,234.5` counts as 1234.5): usually the answer. Full-width digits,
 * point and minus (`４２`, `１２．５`, `－５`, as Chinese text and IMEs write them) and the minus sign `−`
 * read as their ASCII forms; a full-width comma stays a comma of the sentence, not a thousands separator.
 */
export function lastNumber(text: string): number | undefined {
  const matches = asciiDigits(text).match(/-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi);
  const last = matches?.at(-1);
  return last === undefined ? undefined : Number(last.replace(/,/g, ''));
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > 80 ? `${flat.slice(0, 79)}…` : flat);
}
