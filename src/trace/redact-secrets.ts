const REDACTED = '[redacted]';

/** Field names whose values are always secrets (any case, with or without `-` / `_`). */
const SECRET_KEY = /^(?:x[-_]?)?(?:api[-_]?key|(?:proxy[-_]?)?authorization|password|secret)$/i;

/** Substrings that look like credentials: OpenAI/Anthropic-style keys, bearer tokens, a few common vendors. */
const SECRET_PATTERN = new RegExp(
  [
    String.raw`\bsk-[A-Za-z0-9_-]{16,}`,
    String.raw`\bBearer\s+[A-Za-z0-9._~+/=-]{8,}`,
    String.raw`\bAKIA[0-9A-Z]{16}\b`,
    String.raw`\bgh[pousr]_[A-Za-z0-9]{30,}`,
    String.raw`\bxox[abpr]-[A-Za-z0-9-]{10,}`,
    String.raw`\bAIza[0-9A-Za-z_-]{35}`,
  ].join('|'),
  'g',
);

/** Replaces every substring of `text` that looks like an API key or bearer token by `[redacted]`. */
export function redactText(text: string): string {
  return text.replace(SECRET_PATTERN, REDACTED);
}

/**
 * A cheap pre-check on JSON text: a superset of what the precise patterns match (no word boundaries,
 * JSON escapes allowed after `Bearer`) plus any secret-named field. Most lines hold none of these,
 * and then the plain `JSON.stringify` text is already safe.
 */
const MAYBE_SECRET = new RegExp(
  [
    'sk-[A-Za-z0-9_-]{16}',
    String.raw`Bearer(?:\s|\\[nrt])+[A-Za-z0-9._~+/=-]{8}`,
    'AKIA[0-9A-Z]{16}',
    'gh[pousr]_[A-Za-z0-9]{30}',
    'xox[abpr]-[A-Za-z0-9-]{10}',
    'AIza[0-9A-Za-z_-]{35}',
    String.raw`"(?:x[-_]?)?(?:api[-_]?key|(?:proxy[-_]?)?authorization|password|secret)"\s*:`,
  ].join('|'),
  'i',
);

/**
 * `JSON.stringify(value)` with secrets redacted, without copying `value` (what the trace writer
 * calls for every event).
 */
export function redactedJson(value: unknown): string {
  const plain = JSON.stringify(value);
  if (plain === undefined || !MAYBE_SECRET.test(plain)) return plain;
  return JSON.stringify(value, (key, inner: unknown) => {
    if (key && isSecretKey(key) && inner !== undefined && inner !== null) return REDACTED;
    return typeof inner === 'string' ? redactText(inner) : inner;
  });
}

/**
 * A deep copy of `value` with secrets replaced by `[redacted]`: strings that look like API keys
 * (`sk-...`, `Bearer ...`) and the values of fields named `apiKey`, `authorization` and the like.
 */
export function redactSecrets<T>(value: T): T {
  return walk(value) as T;
}

function walk(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(walk);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = isSecretKey(key) && inner !== undefined && inner !== null ? REDACTED : walk(inner);
  }
  return out;
}

function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}
