/**
 * The function-calling leaderboard's AST check (BFCL `ast_checker`), written again for thinkflow's calls:
 * a call is right when its name matches, no unknown parameter appears, the required ones are there, and
 * each value has the parameter's Python type and is among the allowed values (`""` among them marks a
 * parameter that may be left out). Values are read and compared as the checker's Python does (see
 * `py-value.ts`): from the model's raw argument text when it is known, so `5.0` is a float.
 */
import {
  answerType,
  hasKey,
  isDict,
  isPyType,
  PyFloat,
  PyJsonError,
  type PyType,
  pyEquals,
  pyIn,
  pyRepr,
  readPyJson,
} from './py-value.js';

/** The values a parameter may take. `""` among them means it may be left out. */
export type AllowedValues = readonly unknown[];

/** One expected call: the tool's name and, per parameter, its allowed values. */
export interface ExpectedCall {
  name: string;
  arguments: Readonly<Record<string, AllowedValues>>;
  /**
   * The allowed values were read from JSON text with their literals (`readExpectedCalls`): an integral
   * number is an int, a float literal a `PyFloat`, as the leaderboard's `json.loads` reads its answers.
   * Unset, an integral number where a float is expected may have been written `5.0`.
   */
  exact?: boolean;
}

/** A parameter's JSON Schema as the checker reads it (`type`, and `items.type` for arrays). */
export interface ParamSchema {
  type?: string;
  items?: { type?: string };
}

/** A tool's parameter schema (a BFCL function doc, or a thinkflow tool's JSON Schema). */
export interface ToolSchema {
  name: string;
  parameters?: { properties?: Readonly<Record<string, ParamSchema>>; required?: readonly string[] };
}

/**
 * A call as the model made it. `arguments` is best the raw JSON text the model sent (a step's
 * `rawToolCalls`): it is read as Python's `json.loads` reads it, float literals kept. An object already
 * parsed is taken as it is, an integral number in it counting as an int or a float (its literal is lost).
 */
export interface ActualCall {
  name: string;
  arguments: unknown;
}

/** The checker's verdict on one call or a set of calls, with the rule that failed. */
export interface CallCheck {
  valid: boolean;
  error?: string;
  /** The leaderboard's error kinds: `wrong_func_name`, `missing_required`, `unexpected_param`, `type_error:simple`, `type_error:nested`, `value_error:…`, `missing_optional`, `wrong_count`, `cannot_find_match`, `decoder_failed`, `wrong_output_format`. */
  errorType?: string;
}

const OK: CallCheck = { valid: true };
const fail = (errorType: string, error: string): CallCheck => ({ valid: false, errorType, error });

/**
 * The checker's string normalisation: drop spaces and `,./-_*^`, lowercase, and read `'` as `"`, so
 * "April 1, 2024" and "april 1,2024" compare equal.
 */
export function standardizeString(text: string): string {
  return text
    .replace(/[ ,./\-_*^]/g, '')
    .toLowerCase()
    .replace(/'/g, '"');
}

/** A schema type (the leaderboard's, or the JSON Schema one it is converted to for providers) as a Python type. */
function pyTypeOf(type: string | undefined): PyType | undefined {
  switch (type) {
    case 'string':
    case 'any':
      return 'str';
    case 'integer':
      return 'int';
    case 'float':
    case 'number':
      return 'float';
    case 'boolean':
      return 'bool';
    case 'array':
    case 'tuple':
      return 'list';
    case 'dict':
    case 'object':
      return 'dict';
    default:
      return undefined;
  }
}

/** What checking one parameter's value knows besides the value: its name, and which literals are known. */
interface ValueReading {
  param: string;
  /** The value was read from the model's raw text: an integral number is an int. */
  exact: boolean;
  /** The allowed values were read from JSON text with their literals (`ExpectedCall.exact`). */
  exactAnswers: boolean;
}

/** The type of the first allowed value that is not `""`: the type a variable name or `null` answer stands for. */
function answersType(allowed: AllowedValues, slot: PyType | undefined, exact: boolean): PyType | undefined {
  const first = allowed.find((a) => a !== '');
  return first === undefined ? undefined : answerType(first, slot, exact);
}

interface TypeCheck extends CallCheck {
  variable?: boolean;
}

/**
 * The checker's type rule: the value has the expected type, or the type of the allowed values (a
 * variable); a list's items have the item type, or that of the first item of some allowed list (any
 * allowed value that is not a list lets the items be). `variable` is set when the allowed values' type is
 * not the expected one: the value is then compared as it is, not normalised.
 */
function typeCheck(
  reading: ValueReading,
  value: unknown,
  allowed: AllowedValues,
  expected: PyType,
  item?: PyType,
): TypeCheck {
  const { param, exact } = reading;
  const answers = answersType(allowed, expected, reading.exactAnswers);
  const variable = answers !== undefined && answers !== expected;
  if (isPyType(value, expected, exact)) {
    if (item === undefined) return { valid: true, variable };
    const items = value as unknown[];
    const fits = (option: unknown) =>
      !Array.isArray(option) || items.every((v) => typeCheck(reading, v, option, item).valid);
    if (allowed.some(fits)) return { valid: true, variable };
    return fail(
      'type_error:nested',
      `Nested type check failed for ${param}: items must be ${item}, got ${pyRepr(value)}.`,
    );
  }
  if (answers !== undefined && isPyType(value, answers, exact)) return { valid: true, variable: true };
  return fail('type_error:simple', `Incorrect type for ${param}: expected ${expected}, got ${pyRepr(value)}.`);
}

const norm = (value: unknown) => (typeof value === 'string' ? standardizeString(value) : value);
const invalid = (kind: string, param: string, value: unknown, allowed: AllowedValues) =>
  fail(`value_error:${kind}`, `Invalid value for ${param}: ${pyRepr(value)}. Expected one of ${pyRepr(allowed)}.`);

function checkString(param: string, value: string, allowed: AllowedValues): CallCheck {
  const options = allowed.filter((a): a is string => typeof a === 'string').map(standardizeString);
  return options.includes(standardizeString(value)) ? OK : invalid('string', param, value, allowed);
}

/** Lists compare item by item after normalising the strings among them; an allowed string reads as its characters (`""` as an empty list). */
function checkList(param: string, value: unknown[], allowed: AllowedValues): CallCheck {
  const got = value.map(norm);
  const options = allowed.flatMap((a) =>
    Array.isArray(a) ? [a.map(norm)] : typeof a === 'string' ? [[...a].map(norm)] : [],
  );
  return options.some((option) => pyEquals(got, option)) ? OK : invalid('list', param, value, allowed);
}

/** A dictionary matches one allowed dictionary: no unknown key, each value among that key's allowed values, each key without `""` present. */
function checkDict(param: string, value: Record<string, unknown>, allowed: AllowedValues): CallCheck {
  let last = fail('value_error:dict', `Invalid value for ${param}: no allowed dictionary.`);
  for (const option of allowed) {
    if (!isDict(option)) continue;
    const unknownKey = Object.keys(value).find((key) => !hasKey(option, key));
    if (unknownKey !== undefined) {
      last = fail('value_error:dict_key', `Unexpected dict key ${JSON.stringify(unknownKey)} in ${param}.`);
      continue;
    }
    const wrong = Object.keys(value).find((key) => !pyIn(norm(value[key]), asList(option[key]).map(norm)));
    if (wrong !== undefined) {
      last = fail('value_error:dict_value', `Invalid value for ${param}.${wrong}: ${pyRepr(value[wrong])}.`);
      continue;
    }
    const missing = Object.keys(option).find((key) => !hasKey(value, key) && !asList(option[key]).includes(''));
    if (missing !== undefined) {
      last = fail('value_error:dict_key', `Missing dict key ${JSON.stringify(missing)} in ${param}.`);
      continue;
    }
    return OK;
  }
  return last;
}

/** A list of dictionaries matches an allowed list of as many, dictionary by dictionary in order (`""` is a list of none). */
function checkDictList(param: string, value: unknown[], allowed: AllowedValues): CallCheck {
  let last = fail('value_error:list_dict_count', `Wrong number of dictionaries in ${param}.`);
  for (const option of allowed) {
    const list = option === '' ? [] : option;
    if (!Array.isArray(list) || list.length !== value.length) continue;
    const bad = value
      .map((item, i) =>
        isDict(item)
          ? checkDict(param, item, [list[i]])
          : fail('type_error:nested', `${param}[${i}] is not a dictionary.`),
      )
      .find((c) => !c.valid);
    if (!bad) return OK;
    last = bad;
  }
  return last;
}

function asList(value: unknown): AllowedValues {
  return Array.isArray(value) ? value : [value];
}

/**
 * Checks one parameter's value: its type (from the schema, else from the allowed values), then its value.
 */
function checkValue(
  reading: ValueReading,
  value: unknown,
  allowed: AllowedValues,
  schema: ParamSchema | undefined,
): CallCheck {
  const { param } = reading;
  const declared = pyTypeOf(schema?.type);
  const answers = answersType(allowed, undefined, reading.exactAnswers);
  // Without a schema, a numeric answer does not say int or float (JavaScript reads the answer 5.0 as 5):
  // any number stands, as for a float parameter.
  const expected = declared ?? (answers === 'int' ? 'float' : answers);
  if (expected === undefined) return pyIn(value, allowed) ? OK : invalid('others', param, value, allowed);
  const item = expected === 'list' ? pyTypeOf(schema?.items?.type) : undefined;
  // The checker turns an int into a float for a float parameter, at the top level only.
  const read =
    expected === 'float' && typeof value === 'number' && Number.isInteger(value) ? new PyFloat(value) : value;
  const types = typeCheck(reading, read, allowed, expected, item);
  if (!types.valid) return types;
  if (!types.variable) {
    if (expected === 'dict') return checkDict(param, read as Record<string, unknown>, allowed);
    if (expected === 'str') return checkString(param, read as string, allowed);
    if (expected === 'list') {
      const list = read as unknown[];
      // Without an item type, a non-empty list of dictionaries is checked as one.
      const dicts = item === 'dict' || (item === undefined && list.length > 0 && list.every(isDict));
      return dicts ? checkDictList(param, list, allowed) : checkList(param, list, allowed);
    }
  }
  return pyIn(read, allowed) ? OK : invalid('others', param, read, allowed);
}

/** A name matches as written, or with dots read as underscores (providers that forbid dots in names). */
function sameName(actual: string, expected: string): boolean {
  return actual === expected || actual === expected.replace(/\./g, '_');
}

/** A call's arguments as the checker reads them, or why they cannot be read. */
interface DecodedCall {
  name: string;
  args?: Record<string, unknown>;
  /** Read from the raw text: integral numbers are ints. */
  exact: boolean;
  error?: CallCheck;
}

/**
 * Reads a call's arguments as the leaderboard's decoder does: raw text through `json.loads`, which must
 * give an object. An already parsed object is taken as it is; no arguments at all read as `{}`.
 */
function decode(call: ActualCall): DecodedCall {
  const { name, arguments: given } = call;
  if (given === undefined) return { name, args: {}, exact: false };
  if (typeof given !== 'string') {
    return isDict(given)
      ? { name, args: given, exact: false }
      : { name, exact: false, error: fail('wrong_output_format', `Arguments of ${name} are not an object.`) };
  }
  let read: unknown;
  try {
    read = readPyJson(given);
  } catch (error) {
    const why = error instanceof PyJsonError ? error.message : String(error);
    return { name, exact: true, error: fail('decoder_failed', `Arguments of ${name} are not JSON: ${why}.`) };
  }
  return isDict(read)
    ? { name, args: read, exact: true }
    : { name, exact: true, error: fail('wrong_output_format', `Arguments of ${name} are not an object.`) };
}

/** Checks one call against one expected call, rule by rule in the checker's order. */
export function checkToolCall(call: ActualCall, expected: ExpectedCall, schema?: ToolSchema): CallCheck {
  return checkDecoded(decode(call), expected, schema);
}

function checkDecoded(call: DecodedCall, expected: ExpectedCall, schema?: ToolSchema): CallCheck {
  if (!sameName(call.name, expected.name)) {
    return fail(
      'wrong_func_name',
      `Function name ${JSON.stringify(expected.name)} not found (got ${JSON.stringify(call.name)}).`,
    );
  }
  if (call.error || !call.args) return call.error ?? fail('wrong_output_format', 'No arguments.');
  const args = call.args;
  const wanted = expected.arguments;
  const properties = schema?.parameters?.properties;
  const required = schema?.parameters?.required ?? Object.keys(wanted).filter((p) => !asList(wanted[p]).includes(''));
  const missing = required.find((param) => !hasKey(args, param));
  if (missing !== undefined) return fail('missing_required', `Missing required parameter: ${JSON.stringify(missing)}.`);
  for (const [param, value] of Object.entries(args)) {
    if ((properties && !hasKey(properties, param)) || !hasKey(wanted, param)) {
      return fail('unexpected_param', `Unexpected parameter: ${JSON.stringify(param)}.`);
    }
    const reading = { param, exact: call.exact, exactAnswers: expected.exact === true };
    const verdict = checkValue(reading, value, asList(wanted[param]), properties?.[param]);
    if (!verdict.valid) return verdict;
  }
  const left = Object.keys(wanted).find((p) => !hasKey(args, p) && !asList(wanted[p]).includes(''));
  if (left !== undefined) {
    return fail(
      'missing_optional',
      `Optional parameter ${JSON.stringify(left)} not provided and not marked as optional.`,
    );
  }
  return OK;
}

/**
 * Checks a set of calls: as many calls as expected, each expected call matched by a distinct call (in any
 * order, taking for each expected call the first unmatched call that passes, as the checker does; or in
 * order with `ordered`). No expected call (an irrelevance case) is right only when no call was made; as
 * for the leaderboard, calls whose raw arguments do not decode to an object are no call.
 */
export function checkToolCalls(
  calls: readonly ActualCall[],
  expected: readonly ExpectedCall[],
  options: { tools?: readonly ToolSchema[]; ordered?: boolean } = {},
): CallCheck {
  const decoded = calls.map(decode);
  // The leaderboard decodes a reply whole: one call it cannot read and the reply holds no call.
  const noCall = decoded.length === 0 || decoded.some((c) => c.error !== undefined);
  if (expected.length === 0 && noCall) return OK;
  if (calls.length !== expected.length) {
    const names = calls.map((c) => c.name).join(', ') || 'none';
    return fail('wrong_count', `Wrong number of calls: expected ${expected.length}, got ${calls.length} (${names}).`);
  }
  // The tool under the expected name, or under the underscored name a provider was given for a dotted one.
  const schemaOf = (name: string) => options.tools?.find((t) => sameName(t.name, name) || sameName(name, t.name));
  const matched = new Set<number>();
  for (const [i, want] of expected.entries()) {
    const schema = schemaOf(want.name);
    if (options.ordered) {
      const verdict = checkDecoded(decoded[i], want, schema);
      if (!verdict.valid) return { ...verdict, error: `call ${i + 1}: ${verdict.error}` };
      continue;
    }
    let lastError: CallCheck | undefined;
    const found = decoded.findIndex((call, index) => {
      if (matched.has(index)) return false;
      const verdict = checkDecoded(call, want, schema);
      if (!verdict.valid) lastError = verdict;
      return verdict.valid;
    });
    if (found < 0) {
      return fail(
        'cannot_find_match',
        `No call matches expected call ${i + 1} (${want.name}): ${lastError?.error ?? ''}`.trim(),
      );
    }
    matched.add(found);
  }
  return OK;
}
