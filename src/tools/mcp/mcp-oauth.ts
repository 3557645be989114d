import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { ThinkflowError } from '../../core/index.js';
import { thinkflowHome } from '../../llm/index.js';
import type { McpClientSdk } from './mcp-client-sdk.js';

/**
 * How `mcpTools` authenticates to an MCP server that answers 401:
 * - `oauth`: OAuth 2.1 authorization code with PKCE. A person signs in in their browser; a local
 *   callback on 127.0.0.1 receives the code. The client registers itself (dynamic registration or
 *   the `clientMetadataUrl` document) unless `clientId` is given. Tokens are kept in the data dir
 *   and refreshed.
 * - `client_credentials`: for services, with `clientSecret` (client_secret_basic) or `privateKey`
 *   (private_key_jwt, signed with `algorithm`, default RS256).
 */
export type McpAuth =
  | {
      type: 'oauth';
      /** A pre-registered client id (skips dynamic registration). */
      clientId?: string;
      /** The pre-registered client's secret, if it has one. */
      clientSecret?: string;
      /** An HTTPS URL of a client metadata document, used as the client id where the server supports it. */
      clientMetadataUrl?: string;
      /** Scopes to ask for, space-separated (default: what the server advertises). */
      scope?: string;
      /** The callback address registered for a pre-registered client (default `http://127.0.0.1:<free port>/callback`). */
      redirectUrl?: string;
      /** Shows the sign-in page to the person. Default: prints the URL on stderr. */
      openBrowser?(url: URL): void | Promise<void>;
      /** Where tokens are kept (default `$THINKFLOW_HOME/mcp-auth`); `false` keeps them in memory only. */
      tokenDir?: string | false;
      /** How long to wait for the person to sign in (default 5 minutes). */
      timeoutMs?: number;
    }
  | {
      type: 'client_credentials';
      clientId: string;
      clientSecret?: string;
      /** A PEM private key (or JWK) for private_key_jwt. */
      privateKey?: string | Record<string, unknown>;
      /** JWT signing algorithm for `privateKey` (default RS256). */
      algorithm?: string;
      scope?: string;
    };

/** The provider the SDK's transport uses, plus what the connection needs to finish a sign-in. */
export interface McpAuthSession {
  provider: OAuthClientProvider;
  /** Wraps fetch so the callback listener is up before the SDK builds its redirect URL. */
  fetch: typeof fetch;
  /** Waits for the code the browser brings back to the callback (interactive OAuth only). */
  waitForCode?(): Promise<string>;
  close(): Promise<void>;
}

interface Saved {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
}

/** Builds the auth provider for one server URL. */
export function mcpAuthSession(sdk: McpClientSdk, auth: McpAuth, serverUrl: URL): McpAuthSession {
  if (auth.type === 'client_credentials') {
    const provider = auth.privateKey
      ? new sdk.PrivateKeyJwtProvider({
          clientId: auth.clientId,
          privateKey: auth.privateKey,
          algorithm: auth.algorithm ?? 'RS256',
          scope: auth.scope,
        })
      : new sdk.ClientCredentialsProvider({
          clientId: auth.clientId,
          clientSecret: auth.clientSecret ?? '',
          scope: auth.scope,
        });
    return { provider, fetch: (input, init) => fetch(input, init), close: async () => undefined };
  }
  return interactiveSession(auth, serverUrl);
}

function interactiveSession(auth: Extract<McpAuth, { type: 'oauth' }>, serverUrl: URL): McpAuthSession {
  const file =
    auth.tokenDir === false
      ? undefined
      : join(
          auth.tokenDir ?? join(thinkflowHome(), 'mcp-auth'),
          `${createHash('sha256').update(serverUrl.href).digest('hex').slice(0, 24)}.json`,
        );
  let saved: Saved = {};
  if (file) {
    try {
      saved = JSON.parse(readFileSync(file, 'utf8')) as Saved;
    } catch {
      saved = {};
    }
  }
  if (auth.clientId) saved.client = { client_id: auth.clientId, client_secret: auth.clientSecret };
  const save = () => {
    if (!file) return;
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify(saved), { mode: 0o600 });
  };
  const callback = callbackListener(auth.redirectUrl);
  let verifier = '';
  const state = randomBytes(16).toString('hex');
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return callback.url();
    },
    get clientMetadata() {
      return {
        client_name: 'thinkflow',
        redirect_uris: [callback.url()],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: auth.clientSecret ? 'client_secret_basic' : 'none',
        scope: auth.scope,
      };
    },
    clientMetadataUrl: auth.clientMetadataUrl,
    state: () => state,
    clientInformation: () => saved.client,
    saveClientInformation(info) {
      saved.client = info;
      save();
    },
    tokens: () => saved.tokens,
    saveTokens(tokens) {
      saved.tokens = tokens;
      save();
    },
    async redirectToAuthorization(url) {
      callback.expect(state, auth.timeoutMs ?? 300_000);
      if (auth.openBrowser) await auth.openBrowser(url);
      else process.stderr.write(`thinkflow: sign in to the MCP server at ${serverUrl.host}: open ${url.href}\n`);
    },
    saveCodeVerifier(value) {
      verifier = value;
    },
    codeVerifier: () => verifier,
    invalidateCredentials(scope) {
      if (scope === 'all' || scope === 'client') saved.client = auth.clientId ? saved.client : undefined;
      if (scope === 'all' || scope === 'tokens') saved.tokens = undefined;
      save();
    },
  };
  return {
    provider,
    async fetch(input, init) {
      const response = await fetch(input, init);
      if (response.status === 401 || response.status === 403) await callback.start();
      return response;
    },
    waitForCode: () => callback.code(),
    close: () => callback.close(),
  };
}

/** A one-route HTTP listener on 127.0.0.1 that receives the authorization code. */
function callbackListener(fixed: string | undefined) {
  const wanted = fixed ? new URL(fixed) : undefined;
  let server: Server | undefined;
  let address = fixed;
  let pending:
    | { state: string; promise: Promise<string>; resolve(code: string): void; reject(e: Error): void }
    | undefined;
  let timer: NodeJS.Timeout | undefined;
  return {
    url: () => address ?? 'http://127.0.0.1/callback',
    async start() {
      if (server) return;
      server = createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const code = url.searchParams.get('code');
        const error = url.searchParams.get('error');
        if (!pending || url.searchParams.get('state') !== pending.state || (!code && !error)) {
          res.writeHead(400, { 'content-type': 'text/plain' }).end('Unexpected sign-in callback. Close this tab.');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain' }).end('Signed in. You can close this tab.');
        if (code) pending.resolve(code);
        else
          pending.reject(authError(`the sign-in failed: ${error} ${url.searchParams.get('error_description') ?? ''}`));
      });
      const listening = server;
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(Number(wanted?.port || 0), wanted?.hostname ?? '127.0.0.1', () => resolve());
      });
      listening.unref();
      const { port } = listening.address() as AddressInfo;
      address ??= `http://127.0.0.1:${port}/callback`;
    },
    expect(state: string, timeoutMs: number) {
      let resolve!: (code: string) => void;
      let reject!: (error: Error) => void;
      const promise = new Promise<string>((ok, fail) => {
        resolve = ok;
        reject = fail;
      });
      promise.catch(() => undefined);
      pending = { state, promise, resolve, reject };
      clearTimeout(timer);
      timer = setTimeout(() => reject(authError(`nobody signed in within ${timeoutMs} ms`)), timeoutMs);
      timer.unref();
    },
    code() {
      if (!pending) return Promise.reject(authError('no sign-in was started'));
      const { promise } = pending;
      return promise.finally(() => {
        clearTimeout(timer);
        pending = undefined;
      });
    },
    async close() {
      clearTimeout(timer);
      const open = server;
      server = undefined;
      if (open) await new Promise<void>((resolve) => open.close(() => resolve()));
    },
  };
}

function authError(message: string): ThinkflowError {
  return new ThinkflowError({ code: 'tool', message: `MCP sign-in: ${message}.` });
}

/** The message for a 401 with no `auth` configured: names the options that fix it. */
export function unauthorizedHelp(server: string): string {
  return (
    `MCP server "${server}" requires authorization (HTTP 401). Pass auth: { type: 'oauth' } to sign in in a browser, ` +
    `auth: { type: 'client_credentials', clientId, clientSecret | privateKey } for a service, ` +
    `or headers: { Authorization: 'Bearer …' } with a token you already have.`
  );
}
