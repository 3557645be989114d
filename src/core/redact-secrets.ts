const REDACTED = '[redacted]';

/** Field names whose values are always secrets (any case, with or without `-` / `_`). */
const SECRET_KEY =
  /^(?:x[-_]?)?(?:api[-_]?key|(?:proxy[-_]?)?authorization|password|passwd|secret|client[-_]?secret|access[-_]?token|refresh[-_]?token|private[-_]?key|aws[-_]?secret[-_]?access[-_]?key)$/i;

/** Query parameters whose values are secrets (`?api_key=…`, `&token=…`, Google's `?key=…`). */
const SECRET_PARAM =
  'api[_-]?key|apikey|key|token|access[_-]?token|auth|client[_-]?secret|secret|password|sig|signature|x-amz-signature|x-goog-signature';

/** Secret-named settings written in text (`"password":"…"` in a call's JSON arguments, `DB_PASSWORD=…`). */
const SECRET_SETTING = String.raw`(?<![\w-])(?:[\w-]*[_-])?(?:api[_-]?key|apikey|password|passwd|secret|client[_-]?secret|access[_-]?token|refresh[_-]?token|private[_-]?key)`;

/**
 * The credential shapes thinkflow redacts: those of the providers it documents and of a few common
 * services. `pattern` matches the secret itself (a lookbehind keeps what names it, as in
 * `?api_key=[redacted]` or `https://user:[redacted]@host`), case-sensitively unless `anyCase`.
 * `hint` finds, in JSON text, everything `pattern` could match where the pattern itself would not
 * (JSON escapes such as `Bearer\\n…`); without one, the pattern is its own hint (see `redactedJson`).
 */
export const SECRET_SHAPES: readonly { name: string; pattern: string; hint?: string; anyCase?: true }[] = [
  // OpenAI sk-…, sk-proj-…, sk-svcacct-…, Anthropic sk-ant-…, OpenRouter sk-or-…, DeepSeek sk-…
  { name: 'sk- key', pattern: String.raw`\bsk-[A-Za-z0-9_-]{16,}` },
  { name: 'Stripe key', pattern: String.raw`\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}` },
  { name: 'Google API key', pattern: String.raw`\bAIza[0-9A-Za-z_-]{35}` },
  { name: 'Hugging Face token', pattern: String.raw`\bhf_[A-Za-z0-9]{30,}` },
  { name: 'Groq key', pattern: String.raw`\bgsk_[A-Za-z0-9]{20,}` },
  { name: 'xAI key', pattern: String.raw`\bxai-[A-Za-z0-9]{20,}` },
  { name: 'Perplexity key', pattern: String.raw`\bpplx-[A-Za-z0-9]{20,}` },
  { name: 'Replicate token', pattern: String.raw`\br8_[A-Za-z0-9]{20,}` },
  { name: 'GitHub token', pattern: String.raw`\bgh[pousr]_[A-Za-z0-9]{30,}` },
  { name: 'GitHub fine-grained token', pattern: String.raw`\bgithub_pat_[A-Za-z0-9_]{22,}` },
  { name: 'AWS access key id', pattern: String.raw`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b` },
  { name: 'Slack token', pattern: String.raw`\bxox[a-z]-[A-Za-z0-9-]{10,}` },
  { name: 'JWT', pattern: String.raw`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}` },
  { name: 'Bearer token', pattern: String.raw`\bBearer\s+[A-Za-z0-9._~+/=-]{8,}`, hint: 'bearer', anyCase: true },
  {
    name: 'Basic authorization',
    pattern: String.raw`(?<=\bAuthorization["']?\s*[:=]\s*["']?Basic\s+)[A-Za-z0-9+/=]{8,}`,
    hint: 'basic',
    anyCase: true,
  },
  {
    name: 'password in a URL',
    pattern: String.raw`(?<=\b[a-z][a-z0-9+.-]*://[^\s/:@"'<>]*:)[^\s/@"'<>]+(?=@)`,
    hint: String.raw`://[^\s/@"]*@`,
    anyCase: true,
  },
  {
    name: 'secret query parameter',
    pattern: String.raw`(?<=[?&](?:${SECRET_PARAM})=)[^&\s#"'<>]+`,
    hint: `[?&](?:${SECRET_PARAM})=`,
    anyCase: true,
  },
  {
    // Last: a Bearer or Basic value, matched above, is not taken for the setting's value.
    name: 'secret-named setting',
    pattern: String.raw`(?<=${SECRET_SETTING}["']?\s*[:=]\s*["'])(?!\[redacted\])[^"'\n]+|(?<=${SECRET_SETTING}["']?\s*[:=]\s*)(?!(?:null|true|false)\b|\[redacted\])[^\s"',;&}\]]+`,
    // Without the setting's prefix and boundary: a hint may match more, and this one scans fast.
    hint: String.raw`(?:api[_-]?key|apikey|password|passwd|secret|access[_-]?token|refresh[_-]?token|private[_-]?key)\\?["']?\s*[:=]`,
    anyCase: true,
  },
  {
    name: 'private key block',
    pattern: String.raw`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`,
    hint: 'PRIVATE KEY',
  },
];

function joined(shapes: readonly (typeof SECRET_SHAPES)[number][], flags: string): RegExp {
  return new RegExp(shapes.map((shape) => shape.pattern).join('|'), flags);
}
const EXACT_CASE = joined(
  SECRET_SHAPES.filter((shape) => !shape.anyCase),
  'g',
);
const ANY_CASE = joined(
  SECRET_SHAPES.filter((shape) => shape.anyCase),
  'gi',
);

/** Replaces every substring of `text` that looks like a credential (see `SECRET_SHAPES`) by `[redacted]`. */
export function redactText(text: string): string {
  return text.replace(EXACT_CASE, REDACTED).replace(ANY_CASE, REDACTED);
}

/**
 * A cheap pre-check on JSON text: true whenever a shape could match (each shape's hint) or a
 * secret-named field is present. Most lines hold none of these, and then the plain
 * `JSON.stringify` text is already safe.
 */
const MAYBE_SECRET = new RegExp(
  [
    ...SECRET_SHAPES.map((shape) => shape.hint ?? shape.pattern.replaceAll(String.raw`\b`, '')),
    `"${SECRET_KEY.source.slice(1, -1)}"\\s*:`,
  ].join('|'),
  'i',
);

/** False when `text` surely holds nothing `redactText` would change (one cheap scan). */
export function mayHoldSecret(text: string): boolean {
  return MAYBE_SECRET.test(text);
}

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
 * A deep copy of `value` with secrets replaced by `[redacted]`: strings that look like credentials
 * (see `SECRET_SHAPES`) and the values of fields named `apiKey`, `authorization`, `password` and the like.
 */
export function redactSecrets<T>(value: T): T {
  return walk(value) as T;
}

/**
 * `value` itself when its JSON holds nothing `redactSecrets` would change (one `JSON.stringify`),
 * else a redacted copy: for stores that keep values, not JSON text.
 */
export function redactedIfSecret<T>(value: T): T {
  const plain = JSON.stringify(value);
  return plain !== undefined && MAYBE_SECRET.test(plain) ? (walk(value) as T) : value;
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
