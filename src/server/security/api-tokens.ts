import { ConfigError } from '../../core/index.js';

/** RFC 6750's `b64token`: what an `Authorization: Bearer` header can carry. */
const BEARER_TOKEN = /^[A-Za-z0-9._~+/-]+=*$/;

/** The tokens of `THINKFLOW_API_TOKENS` (comma-separated), as `serve`, `studio` and `mcp-serve` read it. */
export function envApiTokens(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.THINKFLOW_API_TOKENS ?? '').split(',').map((token) => token.trim());
}

/**
 * The non-empty tokens of `tokens`, refusing at start-up any that no client could send: a token with
 * a space, `!` or `:` would make every request answer 400, so the server would never be usable.
 */
export function checkApiTokens(tokens: readonly string[]): string[] {
  const kept = tokens.filter((token) => token.length > 0);
  kept.forEach((token, index) => {
    if (BEARER_TOKEN.test(token)) return;
    const bad = [...token].find((ch) => !/[A-Za-z0-9._~+/=-]/.test(ch)) ?? '=';
    throw new ConfigError({
      message: `API token ${index + 1} (of auth.tokens, THINKFLOW_API_TOKENS and --token) holds ${JSON.stringify(bad)}, which a bearer token cannot carry: use only letters, digits and - . _ ~ + / (with = only at the end), e.g. the output of \`openssl rand -hex 32\`.`,
    });
  });
  return kept;
}
