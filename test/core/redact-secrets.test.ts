import { describe, expect, it } from 'vitest';
import { redactedJson, redactSecrets, redactText, SECRET_SHAPES } from '../../src/core/index.js';

// Fake credentials of each documented shape, built at run time so no scanner mistakes them for real ones.
const x = (n: number) => 'Ab1'.repeat(Math.ceil(n / 3)).slice(0, n);

/** [shape, text holding one, the text once redacted]. */
const CASES: [string, string, string][] = [
  ['OpenAI key', `key ${'sk-'}${x(48)} end`, 'key [redacted] end'],
  ['OpenAI project key', `${'sk-proj-'}${x(40)}_${x(20)}`, '[redacted]'],
  ['Anthropic key', `x-api-key: ${'sk-ant-api03-'}${x(90)}`, 'x-api-key: [redacted]'],
  ['OpenRouter key', `${'sk-or-v1-'}${x(64)}`, '[redacted]'],
  ['Google API key', `AIza${x(35)}`, '[redacted]'],
  ['Hugging Face token', `token hf_${x(34)}.`, 'token [redacted].'],
  ['Groq key', `gsk_${x(52)}`, '[redacted]'],
  ['xAI key', `xai-${x(80)}`, '[redacted]'],
  ['Stripe key', `${'sk_'}live_${x(24)}`, '[redacted]'],
  ['Perplexity key', `pplx-${x(48)}`, '[redacted]'],
  ['Replicate token', `r8_${x(37)}`, '[redacted]'],
  ['GitHub classic token', `ghp_${x(36)}`, '[redacted]'],
  ['GitHub app token', `ghs_${x(36)}`, '[redacted]'],
  ['GitHub fine-grained token', `github_pat_${x(22)}_${x(59)}`, '[redacted]'],
  ['AWS access key id', 'AKIAIOSFODNN7EXAMPLE and ASIAIOSFODNN7EXAMPLE', '[redacted] and [redacted]'],
  ['Slack bot token', `xoxb-${'1234567890'}-${x(24)}`, '[redacted]'],
  ['Slack user token', `xoxp-${'1234567890'}-${x(24)}`, '[redacted]'],
  ['JWT', `jwt=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${x(43)}`, 'jwt=[redacted]'],
  ['Bearer header', 'Authorization: Bearer abc.def-ghi_jkl', 'Authorization: [redacted]'],
  ['lower-case bearer', 'authorization: bearer abcdefghijkl', 'authorization: [redacted]'],
  ['Basic header', 'Authorization: Basic dXNlcjpodW50ZXIy', 'Authorization: Basic [redacted]'],
  [
    'password in a URL',
    'GET https://alice:hunter2@example.com/v1 failed',
    'GET https://alice:[redacted]@example.com/v1 failed',
  ],
  [
    'database URL',
    'connect postgres://admin:s3cr%40t@db.internal:5432/app',
    'connect postgres://admin:[redacted]@db.internal:5432/app',
  ],
  [
    'api_key parameter',
    'https://api.x.com/v1?model=a&api_key=abc123&b=2',
    'https://api.x.com/v1?model=a&api_key=[redacted]&b=2',
  ],
  [
    'Google key parameter',
    'https://generativelanguage.googleapis.com/v1?key=abc123',
    'https://generativelanguage.googleapis.com/v1?key=[redacted]',
  ],
  ['access_token parameter', 'cb?access_token=zzz#frag', 'cb?access_token=[redacted]#frag'],
  [
    'secret-named setting in JSON text',
    '{"user":"ann","password":"hunter2 horse"}',
    '{"user":"ann","password":"[redacted]"}',
  ],
  [
    'secret-named environment setting',
    'DB_PASSWORD=s3cret OPENAI_API_KEY=abc1',
    'DB_PASSWORD=[redacted] OPENAI_API_KEY=[redacted]',
  ],
  ['private key', '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAK\n-----END RSA PRIVATE KEY-----', '[redacted]'],
];

/** Text that looks a little like a secret but is not one, and must survive. */
const INNOCENT = [
  'task-force of 20 people',
  'ask-abcdefghijklmnopqrstuvwxyz',
  'Basic arithmetic is fine',
  'See https://example.com/a@b and user@example.com',
  'https://host:8080/path',
  'The bearer of bad news',
  'monkey=banana&keys=2',
  'hf_small',
  '{"password": null, "secret": true}',
  'passwords are long',
];

describe('redactText', () => {
  it.each(CASES)('redacts a %s', (_shape, text, expected) => {
    expect(redactText(text)).toBe(expected);
  });

  it('leaves text that only resembles a secret alone', () => {
    for (const text of INNOCENT) expect(redactText(text)).toBe(text);
  });

  it('has a case above for every shape it knows', () => {
    for (const shape of SECRET_SHAPES) {
      const pattern = new RegExp(shape.pattern, shape.anyCase ? 'i' : '');
      expect(
        CASES.some(([, text]) => pattern.test(text)),
        shape.name,
      ).toBe(true);
    }
  });
});

describe('redactedJson and redactSecrets', () => {
  it('redact every shape inside JSON, whatever the nesting', () => {
    for (const [shape, text] of CASES) {
      const event = { type: 'tool_end', output: { lines: [text] } };
      const written = redactedJson(event);
      expect(JSON.parse(written), shape).toEqual({ type: 'tool_end', output: { lines: [redactText(text)] } });
      expect(redactSecrets(event), shape).toEqual(JSON.parse(written));
    }
  });

  it('redact secret-named fields whatever they hold', () => {
    const value = { headers: { Authorization: 'anything', 'X-Api-Key': 'k', password: 'p', client_secret: 'c' } };
    expect(JSON.parse(redactedJson(value))).toEqual({
      headers: {
        Authorization: '[redacted]',
        'X-Api-Key': '[redacted]',
        password: '[redacted]',
        client_secret: '[redacted]',
      },
    });
  });

  it('write plain JSON untouched when nothing looks secret', () => {
    const clean = { type: 'step_start', text: 'task-force of 20 people', list: [{ a: 1 }] };
    expect(redactedJson(clean)).toBe(JSON.stringify(clean));
  });
});
