import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedAddress } from '../../../../src/tools/builtins/http/check-url.js';
import { httpGetTool } from '../../../../src/tools/builtins/http/http-get-tool.js';
import { runTool } from '../run-tool.js';
import { startServer, type TestServer } from './http-server.js';

// Every refusal here happens before a socket is opened; the only traffic goes to the 127.0.0.1 test server.
let server: TestServer;

beforeAll(async () => {
  server = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/redirect') {
      res.statusCode = 302;
      res.setHeader('location', url.searchParams.get('to') ?? '/');
      res.end();
      return;
    }
    res.setHeader('content-type', 'text/plain');
    res.end('reached');
  });
});

afterAll(async () => {
  await server.close();
});

describe('http_get refuses non-public addresses by default', () => {
  const port = () => server.port;
  it.each([
    ['127.0.0.1', () => `http://127.0.0.1:${port()}/`],
    ['::1', () => `http://[::1]:${port()}/`],
    ['169.254.169.254 (cloud metadata)', () => 'http://169.254.169.254/latest/meta-data/'],
    ['decimal 2130706433', () => `http://2130706433:${port()}/`],
    ['hex 0x7f000001', () => `http://0x7f000001:${port()}/`],
    ['octal 0177.0.0.1', () => `http://0177.0.0.1:${port()}/`],
    ['short 127.1', () => `http://127.1:${port()}/`],
    ['IPv4-mapped [::ffff:127.0.0.1]', () => `http://[::ffff:127.0.0.1]:${port()}/`],
    ['IPv4-mapped hex [::ffff:a9fe:a9fe]', () => 'http://[::ffff:a9fe:a9fe]/'],
    ['unspecified 0.0.0.0', () => `http://0.0.0.0:${port()}/`],
    ['unspecified 0', () => `http://0:${port()}/`],
    ['private 10.0.0.1', () => 'http://10.0.0.1/'],
    ['private 192.168.1.1', () => 'http://192.168.1.1/'],
    ['CGNAT 100.64.0.1', () => 'http://100.64.0.1/'],
    ['full-width digits', () => `http://\uff11\uff12\uff17.0.0.1:${port()}/`],
    ['percent-encoded host', () => `http://%31%32%37.0.0.1:${port()}/`],
  ])('refuses %s', async (_name, url) => {
    await expect(runTool(httpGetTool(), { url: url() })).rejects.toThrow(/Refused: .* address/);
    expect(server.hits).toEqual([]);
  });

  it('refuses a name that resolves to a private address (localhost)', async () => {
    await expect(runTool(httpGetTool(), { url: `http://localhost:${server.port}/` })).rejects.toThrow(
      /Refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/,
    );
    expect(server.hits).toEqual([]);
  });

  it('refuses a name when any one of its addresses is private', async () => {
    const lookup = async (): Promise<ResolvedAddress[]> => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    await expect(runTool(httpGetTool({ lookup }), { url: 'http://mixed.test/' })).rejects.toThrow(
      /mixed\.test resolves to 10\.0\.0\.5, a private address/,
    );
  });
});

describe('http_get checks every redirect', () => {
  it('allows the first hop by name, then refuses a redirect to a private address', async () => {
    const tool = httpGetTool({ allowedPrivateHosts: ['127.0.0.1'] });
    expect(await runTool(tool, { url: `${server.url}/plain` })).toContain('reached');
    const hits = server.hits.length;
    for (const to of [
      `http://localhost:${server.port}/plain`,
      `http://[::1]:${server.port}/plain`,
      'http://169.254.169.254/latest/meta-data/',
      `http://2130706434:${server.port}/plain`,
      `http://0x7f000002:${server.port}/plain`,
    ]) {
      const url = `${server.url}/redirect?to=${encodeURIComponent(to)}`;
      await expect(runTool(tool, { url })).rejects.toThrow(/Redirect refused: Refused: .* address/);
    }
    expect(server.hits.slice(hits).every((hit) => hit.startsWith('/redirect'))).toBe(true);
  });

  it('refuses a redirect to a host outside the allowlist, and to another scheme', async () => {
    const tool = httpGetTool({ allowPrivateNetwork: true, allowedHosts: ['127.0.0.1'] });
    const away = `${server.url}/redirect?to=${encodeURIComponent(`http://localhost:${server.port}/plain`)}`;
    await expect(runTool(tool, { url: away })).rejects.toThrow(/Redirect refused: localhost is not an allowed host/);
    const file = `${server.url}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`;
    await expect(runTool(tool, { url: file })).rejects.toThrow(/Redirect refused: Only http and https/);
  });
});

describe('http_get host allowlist', () => {
  it('accepts exact names and *.suffix patterns only', async () => {
    const tool = httpGetTool({ allowedHosts: ['*.example.org', 'docs.test'] });
    await expect(runTool(tool, { url: 'http://evil.test/' })).rejects.toThrow(/not an allowed host/);
    await expect(runTool(tool, { url: 'http://example.org.evil.test/' })).rejects.toThrow(/not an allowed host/);
    await expect(runTool(tool, { url: 'http://notexample.org/' })).rejects.toThrow(/not an allowed host/);
  });
});

describe('http_get pins the connection to the address it checked', () => {
  it('resolves once per hop and never asks DNS again (no rebinding window)', async () => {
    const answers = ['127.0.0.1', '10.9.9.9'];
    const asked: string[] = [];
    const lookup = async (hostname: string): Promise<ResolvedAddress[]> => {
      asked.push(hostname);
      return [{ address: answers.shift() ?? '10.9.9.9', family: 4 }];
    };
    // rebind.test exists in no DNS: the request can only succeed if it connects to the pinned 127.0.0.1.
    const tool = httpGetTool({ lookup, allowedPrivateHosts: ['rebind.test'] });
    expect(await runTool(tool, { url: `http://rebind.test:${server.port}/plain` })).toContain('reached');
    expect(asked).toEqual(['rebind.test']);
  });
});
