const REDACTED = '[redacted]';

/** Field names whose values are always secrets, compared case-insensitively without `-` and `_`. */
const SECRET_KEYS = new Set(['apikey', 'authorization', 'proxyauthorization', 'xapikey', 'password', 'secret']);

/** Substrings that look like credentials: OpenAI/Anthropic-style keys, bearer tokens, a few common vendors. */
const SECRET_PATTERNS: RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  /\bxox[abpr]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{35}/g,
];

/** Replaces every substring of `text` that looks like an API key or bearer token by `[redacted]`. */
export function redactText(text: string): string {
  let out = text;
  for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, REDACTED);
  return out;
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
  return SECRET_KEYS.has(key.toLowerCase().replace(/[-_]/g, ''));
}
