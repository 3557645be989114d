import { parseJsonLenient } from '../core/index.js';
import { formatInputIssues, formatNotAnObject } from './format-input-issues.js';
import type { AnyTool } from './tool.js';
import { toolInputShape } from './tool-input-shape.js';

/** Validated arguments, or the observation that tells the model what to fix. */
export type CoercedArguments = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Turns arguments as a model sent them into the tool's validated input. Accepts an object, a JSON
 * string, a JSON-ish string (repaired with jsonrepair: trailing commas, single quotes, unquoted
 * keys...) or a bare value; a bare value maps to the schema's only required field (bare strings
 * only when that field is a string). Never throws.
 *
 * @example
 * coerceArguments(calculatorTool, '2 * 21'); // { ok: true, value: { expression: '2 * 21' } }
 * coerceArguments(weather, '{"city": "Paris",}'); // { ok: true, value: { city: 'Paris' } }
 */
export function coerceArguments(tool: AnyTool, raw: unknown): CoercedArguments {
  const input = toObject(tool, raw);
  if (input === NOT_AN_OBJECT) return { ok: false, message: formatNotAnObject(tool, raw) };
  const result = tool.parse(input);
  if (result.ok) return { ok: true, value: result.value };
  return { ok: false, message: formatInputIssues(tool, result.issues, input) };
}

const NOT_AN_OBJECT = Symbol('not an object');

function toObject(tool: AnyTool, raw: unknown): unknown {
  if (raw === undefined || raw === null) return {};
  if (isPlainObject(raw)) return raw;
  if (typeof raw !== 'string') return mapToSoleField(tool, raw, raw);
  const text = raw.trim();
  if (text === '') return {};
  const parsed = readJson(text);
  if (isPlainObject(parsed)) return parsed;
  // A JSON string literal may itself hold an object (double-encoded arguments).
  if (typeof parsed === 'string') {
    const inner = parsed.trim().startsWith('{') ? readJson(parsed) : undefined;
    if (isPlainObject(inner)) return inner;
    return mapToSoleField(tool, parsed, parsed);
  }
  // Anything else (a number, an expression like `[1,2] * 3`) maps as the text the model wrote.
  return mapToSoleField(tool, text, parsed === undefined ? text : parsed);
}

function mapToSoleField(tool: AnyTool, text: unknown, value: unknown): unknown {
  const shape = toolInputShape(tool);
  if (shape.soleField === undefined) return NOT_AN_OBJECT;
  return { [shape.soleField]: shape.soleFieldIsString ? (typeof text === 'string' ? text : String(text)) : value };
}

/** One quoted string, quote to quote, with no unescaped quote of its kind inside. */
const ONE_STRING = /^(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')$/;

/** Strict JSON first (fast path), then jsonrepair for JSON-ish text; undefined when neither reads it. */
function readJson(text: string): unknown {
  // Only text that looks like JSON is worth repairing; a bare sentence must stay a bare string, and so
  // must text that merely starts and ends with quotes (`"Foo" and "Bar"`), which repair would cut.
  const first = text[0];
  const read = parseJsonLenient(text, { repair: first === '{' || first === '[' || ONE_STRING.test(text) });
  return read.ok ? read.value : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
