import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isThinkflowError } from '../../../src/core/index.js';
import {
  type CreateAppOptions,
  checkApiTokens,
  createApp,
  isAllowedHost,
  SqliteRunStore,
  securityMiddleware,
  serve,
} from '../../../src/server/index.js';
import { httpRequest } from '../raw-http.js';
import { postJson, stepsAgent, tempDir } from '../server-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

function app(options: Partial<Pick<CreateAppOptions, 'security' | 'cors' | 'auth'>> = {}) {
  const dir = tempDir();
  const store = new SqliteRunStore({ path: join(dir.path, 'runs.db') });
  const created = createApp({ agents: { steps: stepsAgent({ toolSteps: 0 }) }, store, ...options });
  cleanups.push(async () => {
    await created.runs.close({ timeoutMs: 1000 });
    await store.close();
    dir.cleanup();
  });
  return (url: string, init: RequestInit = {}) => created.fetch(new Request(url, init));
}

describe('host names', () => {
  it('answers loopback names and configured ones, nothing else', () => {
    for (const name of ['localhost', '127.0.0.1', '[::1]', 'studio.localhost'])
      expect(isAllowedHost(name, []), name).toBe(true);
    for (const name of ['rebind.test', '127.0.0.1.nip.io', 'localhost.attacker.test', '10.0.0.5', '0.0.0.0'])
      expect(isAllowedHost(name, []), name).toBe(false);
    expect(isAllowedHost('agents.example.com', ['agents.example.com:443'])).toBe(true);
    expect(isAllowedHost('a.example.com', ['*.example.com'])).toBe(true);
    expect(isAllowedHost('example.com.attacker.test', ['*.example.com'])).toBe(false);
    expect(isAllowedHost('anything.test', ['*'])).toBe(true);
    expect(isAllowedHost('agents.example.com', ['https://agents.example.com/'])).toBe(true);
  });

  it('serves a configured host, and names the fix when it refuses one', async () => {
    const request = app({ security: { allowedHosts: ['agents.example.com'] } });
    expect((await request('http://agents.example.com/health')).status).toBe(200);
    const refused = await request('http://other.example.com/health');
    expect(refused.status).toBe(403);
    const { error } = (await refused.json()) as { error: { message: string; code: string } };
    expect(error.code).toBe('forbidden');
    expect(error.message).toContain('security.allowedHosts');
    expect(error.message).toContain('--allowed-host');
  });

  it('serve answers the specific address it binds, and refuses others', async () => {
    const dir = tempDir();
    const server = await serve({
      config: { agents: { steps: stepsAgent({ toolSteps: 0 }) } },
      port: 0,
      hostname: '127.0.0.1',
      dataDir: dir.path,
      allowedHosts: ['box.internal'],
      log: () => {},
    });
    try {
      const at = (host: string) => httpRequest(`${server.url}/health`, { headers: { host } });
      expect((await at(`127.0.0.1:${server.port}`)).status).toBe(200);
      expect((await at('box.internal')).status).toBe(200);
      expect((await at('rebind.test')).status).toBe(403);
    } finally {
      await server.close();
      dir.cleanup();
    }
  });
});

describe('CORS', () => {
  it('is off without cors.origins: no preflight, no Access-Control header', async () => {
    const request = app();
    const preflight = await request('http://localhost/v1/agents/steps/runs', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const read = await request('http://localhost/v1/runs', { headers: { origin: 'https://app.example' } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses at start-up an entry of cors.origins that is not an origin, naming the form', () => {
    for (const entry of ['app.example.com', 'https://app.example.com/path', '*'])
      expect(() => securityMiddleware({ cors: { origins: [entry] } }), entry).toThrow(/https:\/\/app\.example\.com/);
  });

  it('answers preflight and calls from a listed origin only', async () => {
    const request = app({ cors: { origins: ['https://app.example'] } });
    const preflight = await request('http://localhost/v1/agents/steps/runs', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    const started = await request(
      'http://localhost/v1/agents/steps/runs?wait=true',
      postJson({ input: 'go' }, { origin: 'https://app.example' }),
    );
    expect(started.status).toBe(200);
    expect(started.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const other = await request(
      'http://localhost/v1/agents/steps/runs',
      postJson({ input: 'go' }, { origin: 'https://evil.example' }),
    );
    expect(other.status).toBe(403);
  });
});

describe('bearer tokens', () => {
  it('refuses at start-up a token no client could send, naming the character and not the token', () => {
    for (const token of ['change me!', 'abc:def', 'tab\there', 'a=b']) {
      let thrown: unknown;
      try {
        checkApiTokens(['good-token', token]);
      } catch (error) {
        thrown = error;
      }
      expect(isThinkflowError(thrown), token).toBe(true);
      const message = (thrown as Error).message;
      expect(message).toContain('API token 2');
      expect(message).toContain('openssl rand -hex 32');
      expect(message).not.toContain(token);
    }
    expect(checkApiTokens(['', 'abc-DEF_1.2~3+4/5==', ''])).toEqual(['abc-DEF_1.2~3+4/5==']);
    const dir = tempDir();
    const store = new SqliteRunStore({ path: join(dir.path, 'runs.db') });
    try {
      expect(() =>
        createApp({ agents: {}, store, auth: { tokens: [{ token: 'change me!', principal: 'p' }] } }),
      ).toThrow(/bearer token cannot carry/);
    } finally {
      dir.cleanup();
    }
  });

  it('serve refuses it before binding a port', async () => {
    const dir = tempDir();
    try {
      await expect(
        serve({ config: { agents: {}, auth: { tokens: ['abc:def'] } }, port: 0, dataDir: dir.path, log: () => {} }),
      ).rejects.toThrow(/":"/);
    } finally {
      dir.cleanup();
    }
  });
});
