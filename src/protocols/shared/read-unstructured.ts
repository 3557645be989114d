import { type ParsedStep, parseJsonLenient } from '../../core/index.js';
import { CALL_MARKERS } from './call-markers.js';
import { invalid, withExtras } from './invalid.js';
import { extractJson } from './json.js';
import { splitSections } from './keywords.js';
import { readPythonicCalls } from './pythonic-calls.js';
import { readActionObject } from './read-action-object.js';
import { extractTaggedCalls, textBeforeTags } from './tool-call-tags.js';

/**
 * Reads an action written without ReAct keywords: a `<tool_call>`/`<function=…>` tag, a pythonic
 * call list (`[search(q="x")]`), or a JSON object shaped like an action (`{"name", "arguments"}`…).
 * Returns undefined when there is neither, so the caller can fall back to the plain-reply rule.
 */
export function readUnstructured(text: string, raw: string): ParsedStep | undefined {
  const tagged = extractTaggedCalls(text);
  if (tagged.length > 0) {
    const first = tagged[0];
    const before = reasoningIn(textBeforeTags(text));
    const span = extractJson(first.body);
    const body = span ? span.json : first.body.trim();
    const truncated = span?.truncated ?? false;
    if (span?.cutInString) {
      return invalid(raw, 'The tool call was cut off in the middle of a string. Send the whole tool call again.');
    }
    const parsed = body === '' ? { ok: true as const, value: {}, repaired: false } : parseJsonLenient(body);
    if (!parsed.ok) return invalid(raw, `The tool call's JSON could not be read (${parsed.error}). Send valid JSON.`);
    const value = first.kind === 'function' ? { name: first.name, arguments: parsed.value } : parsed.value;
    const step = readActionObject(value, { raw, truncated });
    if (!step) {
      return invalid(
        raw,
        'The <tool_call> tag must hold {"name": "<tool>", "arguments": {...}}, and it did not name a tool.',
      );
    }
    const read = withExtras(step, before, parsed.repaired || truncated);
    // A call in a model's own tag format: that is the habit, whatever JSON shape the tag holds.
    if (read.type !== 'invalid') read.habits = ['special_tokens'];
    return read;
  }
  const pythonic = readPythonicCalls(text);
  if (pythonic) return pythonic;
  const span = extractJson(text);
  if (!span) return undefined;
  const parsed = parseJsonLenient(span.json);
  if (!parsed.ok) return undefined;
  const step = readActionObject(parsed.value, { raw, truncated: span.truncated });
  if (!step || step.type === 'invalid') return step;
  if (span.cutInString && step.type === 'action') {
    return invalid(raw, 'The JSON action was cut off in the middle of a string. Send the whole JSON object again.');
  }
  const before = reasoningIn(text.slice(0, span.start));
  return withExtras(step, before, parsed.repaired || span.truncated);
}

/** The reasoning in the text before a call: prose and Thought sections, without their keywords. */
function reasoningIn(text: string): string | undefined {
  const { preamble, sections } = splitSections(text.replace(CALL_MARKERS, ''));
  const parts = [preamble, ...sections.filter((s) => s.keyword === 'thought').map((s) => s.content)];
  return (
    parts
      .map((p) => p.trim())
      .filter(Boolean)
      .join('\n\n') || undefined
  );
}
