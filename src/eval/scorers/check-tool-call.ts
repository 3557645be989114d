/**
 * The function-calling leaderboard's AST check (BFCL `ast_checker`), written again for thinkflow's calls:
 * a call is right when its name matches, no unknown parameter appears, the required ones are there, and
 * each value is among the allowed values (`""` among them marks a parameter that may be left out).
 * Strings compare after the checker's normalisation; an integer stands where a float is expected.
 */

/** The values a parameter may take. `""` among them means it may be left out. */
export type AllowedValues = readonly unknown[];

/** One expected call: the tool's name and, per parameter, its allowed values. */
export interface ExpectedCall {
  name: string;
  arguments: Readonly<Record<string, AllowedValues>>;
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

/** A call as the model made it. */
export interface ActualCall {
  name: string;
  arguments: unknown;
}

/** The checker's verdict on one call or a set of calls, with the rule that failed. */
export interface CallCheck {
  valid: boolean;
  error?: string;
  /** The leaderboard's error kinds: `wrong_func_name`, `missing_required`, `unexpected_param`, `type_error`, `value_error`, `missing_optional`, `wrong_count`, `cannot_find_match`. */
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

/** The checker's types: a JSON Schema (or BFCL) type name read as the kind of value it needs. */
type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'dict' | 'skip';

function kindOf(type: string | undefined): Kind | undefined {
  switch (type) {
    case 'string':
    case 'any':
      return 'string';
    case 'integer':
      return 'integer';
    // JSON does not tell 1 from 1.0: any number stands for a float (the checker's int-to-float rule).
    case 'float':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
    case 'tuple':
      return 'array';
    case 'dict':
      return 'dict';
    // As in the checker, a parameter typed `object` is not checked.
    case 'object':
      return 'skip';
    default:
      return undefined;
  }
}

function kindOfValue(value: unknown): Kind {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'array';
  return 'dict';
}

function fits(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'dict':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'skip':
      return true;
    default:
      return kindOfValue(value) === kind && value !== null;
  }
}

/** Deep equality as Python's `==` on JSON values. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (fits(a, 'dict') && fits(b, 'dict')) {
    const ka = Object.keys(a as object);
    const kb = Object.keys(b as object);
    return (
      ka.length === kb.length &&
      ka.every((k) => k in (b as object) && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return false;
}

const norm = (value: unknown) => (typeof value === 'string' ? standardizeString(value) : value);
const among = (value: unknown, allowed: AllowedValues) => allowed.some((a) => same(value, a));

function checkString(param: string, value: string, allowed: AllowedValues): CallCheck {
  const options = allowed.filter((a): a is string => typeof a === 'string').map(standardizeString);
  return options.includes(standardizeString(value))
    ? OK
    : fail(
        'value_error:string',
        `Invalid value for ${param}: ${JSON.stringify(value)}. Expected one of ${JSON.stringify(allowed)}.`,
      );
}

function checkList(param: string, value: unknown[], allowed: AllowedValues): CallCheck {
  const got = value.map(norm);
  const options = allowed.filter(Array.isArray).map((list) => list.map(norm));
  return options.some((option) => same(got, option))
    ? OK
    : fail(
        'value_error:list',
        `Invalid value for ${param}: ${JSON.stringify(value)}. Expected one of ${JSON.stringify(allowed)}.`,
      );
}

function checkDict(param: string, value: Record<string, unknown>, allowed: AllowedValues): CallCheck {
  let last = fail('value_error:dict', `Invalid value for ${param}: no allowed dictionary.`);
  for (const option of allowed) {
    if (option === '' || !fits(option, 'dict')) continue;
    const fields = option as Record<string, AllowedValues>;
    const unknownKey = Object.keys(value).find((key) => !(key in fields));
    if (unknownKey !== undefined) {
      last = fail('value_error:dict_key', `Unexpected dict key ${JSON.stringify(unknownKey)} in ${param}.`);
      continue;
    }
    const wrong = Object.keys(value).find((key) => !among(norm(value[key]), asList(fields[key]).map(norm)));
    if (wrong !== undefined) {
      last = fail('value_error:dict_value', `Invalid value for ${param}.${wrong}: ${JSON.stringify(value[wrong])}.`);
      continue;
    }
    const missing = Object.keys(fields).find((key) => !(key in value) && !asList(fields[key]).includes(''));
    if (missing !== undefined) {
      last = fail('value_error:dict_key', `Missing dict key ${JSON.stringify(missing)} in ${param}.`);
      continue;
    }
    return OK;
  }
  return last;
}

function checkDictList(param: string, value: unknown[], allowed: AllowedValues): CallCheck {
  let last = fail('value_error:list_dict_count', `Wrong number of dictionaries in ${param}.`);
  for (const option of allowed) {
    if (!Array.isArray(option) || option.length !== value.length) continue;
    const bad = value
      .map((item, i) =>
        fits(item, 'dict')
          ? checkDict(param, item as Record<string, unknown>, [option[i]])
          : fail('type_error', `${param}[${i}] is not a dictionary.`),
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

/** Checks one parameter's value: its type (from the schema, else from the allowed values), then its value. */
function checkValue(param: string, value: unknown, allowed: AllowedValues, schema: ParamSchema | undefined): CallCheck {
  const answerKind = allowed.find((a) => a !== '');
  const declared = kindOf(schema?.type) ?? (answerKind === undefined ? undefined : kindOfValue(answerKind));
  if (declared === 'skip') return OK;
  if (declared && !fits(value, declared)) {
    // An allowed value of another type than the schema's stands for a variable name: compare as it is.
    const variable =
      answerKind !== undefined && !fits(answerKind, declared) && kindOfValue(value) === kindOfValue(answerKind);
    if (!variable)
      return fail(
        'type_error',
        `Incorrect type for ${param}: expected ${schema?.type ?? declared}, got ${JSON.stringify(value)}.`,
      );
    return among(value, allowed)
      ? OK
      : fail('value_error:others', `Invalid value for ${param}: ${JSON.stringify(value)}.`);
  }
  const itemKind = kindOf(schema?.items?.type);
  if (
    declared === 'array' &&
    itemKind &&
    itemKind !== 'skip' &&
    !(value as unknown[]).every((item) => fits(item, itemKind))
  ) {
    return fail('type_error:nested', `Nested type check failed for ${param}: items must be ${schema?.items?.type}.`);
  }
  if (typeof value === 'string') return checkString(param, value, allowed);
  if (Array.isArray(value)) {
    const dicts =
      itemKind === 'dict' || (itemKind === undefined && value.length > 0 && value.every((v) => fits(v, 'dict')));
    return dicts ? checkDictList(param, value, allowed) : checkList(param, value, allowed);
  }
  if (fits(value, 'dict')) return checkDict(param, value as Record<string, unknown>, allowed);
  return among(value, allowed)
    ? OK
    : fail(
        'value_error:others',
        `Invalid value for ${param}: ${JSON.stringify(value)}. Expected one of ${JSON.stringify(allowed)}.`,
      );
}

/** A name matches as written, or with dots read as underscores (providers that forbid dots in names). */
function sameName(actual: string, expected: string): boolean {
  return actual === expected || actual === expected.replace(/\./g, '_');
}

/** Checks one call against one expected call, rule by rule in the checker's order. */
export function checkToolCall(call: ActualCall, expected: ExpectedCall, schema?: ToolSchema): CallCheck {
  if (!sameName(call.name, expected.name)) {
    return fail(
      'wrong_func_name',
      `Function name ${JSON.stringify(expected.name)} not found (got ${JSON.stringify(call.name)}).`,
    );
  }
  const args = fits(call.arguments, 'dict') ? (call.arguments as Record<string, unknown>) : {};
  const properties = schema?.parameters?.properties;
  const required =
    schema?.parameters?.required ?? Object.keys(expected.arguments).filter((p) => !expected.arguments[p].includes(''));
  const missing = required.find((param) => !(param in args));
  if (missing !== undefined) return fail('missing_required', `Missing required parameter: ${JSON.stringify(missing)}.`);
  for (const [param, value] of Object.entries(args)) {
    if ((properties && !(param in properties)) || !(param in expected.arguments)) {
      return fail('unexpected_param', `Unexpected parameter: ${JSON.stringify(param)}.`);
    }
    const verdict = checkValue(param, value, expected.arguments[param], properties?.[param]);
    if (!verdict.valid) return verdict;
  }
  const left = Object.keys(expected.arguments).find((p) => !(p in args) && !expected.arguments[p].includes(''));
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
 * order with `ordered`). No expected call (a relevance case) is right only when no call was made.
 */
export function checkToolCalls(
  calls: readonly ActualCall[],
  expected: readonly ExpectedCall[],
  options: { tools?: readonly ToolSchema[]; ordered?: boolean } = {},
): CallCheck {
  if (calls.length !== expected.length) {
    const names = calls.map((c) => c.name).join(', ') || 'none';
    return fail('wrong_count', `Wrong number of calls: expected ${expected.length}, got ${calls.length} (${names}).`);
  }
  const schemaOf = (name: string) => options.tools?.find((t) => sameName(name, t.name) || t.name === name);
  const matched = new Set<number>();
  for (const [i, want] of expected.entries()) {
    const schema = schemaOf(want.name);
    if (options.ordered) {
      const verdict = checkToolCall(calls[i], want, schema);
      if (!verdict.valid) return { ...verdict, error: `call ${i + 1}: ${verdict.error}` };
      continue;
    }
    let lastError: CallCheck | undefined;
    const found = calls.findIndex((call, index) => {
      if (matched.has(index)) return false;
      const verdict = checkToolCall(call, want, schema);
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
