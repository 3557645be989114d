import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGetTool } from '../../../../src/tools/builtins/http/http-get-tool.js';
import { runTool } from '../run-tool.js';
import { startServer, type TestServer } from './http-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/page') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        '<html><head><style>p{}</style><script>alert(1)</script></head><body><h1>Title</h1><p>Hello <a href="/x">world</a></p></body></html>',
      );
    } else if (url.pathname === '/json') {
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    } else if (url.pathname === '/big') {
      res.setHeader('content-type', 'text/plain');
      res.end('x'.repeat(200_000));
    } else if (url.pathname === '/gzip-bomb') {
      res.setHeader('content-type', 'text/plain');
      res.setHeader('content-encoding', 'gzip');
      res.end(gzipSync(Buffer.alloc(50 * 1024 * 1024, 'a')));
    } else if (url.pathname === '/image') {
      res.setHeader('content-type', 'image/png');
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    } else if (url.pathname === '/hang') {
      res.setHeader('content-type', 'text/plain');
      res.write('partial');
    } else if (url.pathname === '/cut-gzip') {
      // Half of a gzip body, then the connection is cut.
      res.setHeader('content-type', 'text/plain');
      res.setHeader('content-encoding', 'gzip');
      res.setHeader('content-length', '100000');
      const zipped = gzipSync(Buffer.alloc(100_000, 'b'));
      res.write(zipped.subarray(0, zipped.length >> 1), () => res.socket?.destroy());
    } else if (url.pathname === '/cut-plain') {
      res.setHeader('content-type', 'text/plain');
      res.setHeader('content-length', '100000');
      res.write('only part', () => res.socket?.destroy());
    } else if (url.pathname === '/corrupt-gzip') {
      res.setHeader('content-type', 'text/plain');
      res.setHeader('content-encoding', 'gzip');
      res.end(Buffer.from('this is not gzip at all'));
    } else if (url.pathname === '/redirect') {
      res.statusCode = 302;
      res.setHeader('location', url.searchParams.get('to') ?? '/page');
      res.end();
    } else if (url.pathname === '/loop') {
      res.statusCode = 301;
      res.setHeader('location', '/loop');
      res.end();
    } else {
      res.statusCode = 404;
      res.setHeader('content-type', 'text/plain');
      res.end('not here');
    }
  });
});

afterAll(async () => {
  await server.close();
});

const local = (extra = {}) => httpGetTool({ allowPrivateNetwork: true, ...extra });

describe('http_get happy path (a local server, private network allowed)', () => {
  it('turns HTML into readable text without scripts, styles or link targets', async () => {
    const text = (await runTool(local(), { url: `${server.url}/page` })) as string;
    expect(text).toContain(`URL: ${server.url}/page\nStatus: 200\nContent-Type: text/html`);
    expect(text).toContain('TITLE');
    expect(text).toContain('Hello world');
    expect(text).not.toMatch(/alert|p\{\}|\/x/);
  });

  it('returns JSON as is, reports 404 with the body, and does not dump binary bodies', async () => {
    expect(await runTool(local(), { url: `${server.url}/json` })).toContain('{"ok":true}');
    expect(await runTool(local(), { url: `${server.url}/missing` })).toContain('Status: 404');
    expect(await runTool(local(), { url: `${server.url}/image` })).toContain('[binary content (4 B) not shown]');
  });

  it('follows relative redirects', async () => {
    const text = (await runTool(local(), { url: `${server.url}/redirect?to=/json` })) as string;
    expect(text).toContain(`URL: ${server.url}/json`);
  });

  it('caps the body size and the text length, and stops a gzip bomb at the byte limit', async () => {
    const text = (await runTool(local({ maxReadBytes: 10_000, maxOutputChars: 500 }), {
      url: `${server.url}/big`,
    })) as string;
    expect(text.length).toBeLessThan(600);
    expect(text).toMatch(/cut/);
    const bomb = (await runTool(local({ maxReadBytes: 4096, maxOutputChars: 100_000 }), {
      url: `${server.url}/gzip-bomb`,
    })) as string;
    expect(bomb).toContain('[body cut at the 4 KB size limit]');
    expect(bomb.length).toBeLessThan(5000);
  });

  it('gives up on a server that never finishes, within the time limit', async () => {
    const started = Date.now();
    await expect(runTool(local({ timeoutMs: 300 }), { url: `${server.url}/hang` })).rejects.toThrow(
      /timed out after 300 ms/,
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('fails clearly, at once, when the connection is cut mid-body (plain or gzip) or the gzip is corrupt', async () => {
    // Before, a cut gzip body left the decoder waiting until the time limit.
    const tool = local({ timeoutMs: 8000 });
    await expect(runTool(tool, { url: `${server.url}/cut-gzip` })).rejects.toThrow(/Could not fetch .*cut-gzip: /);
    await expect(runTool(tool, { url: `${server.url}/cut-plain` })).rejects.toThrow(/Could not fetch .*cut-plain: /);
    await expect(runTool(tool, { url: `${server.url}/corrupt-gzip` })).rejects.toThrow(/compressed body is corrupt/);
  });

  it('caps redirects', async () => {
    await expect(runTool(local({ maxRedirects: 3 }), { url: `${server.url}/loop` })).rejects.toThrow(
      /Too many redirects/,
    );
  });

  it('refuses non-http schemes and credentials', async () => {
    await expect(runTool(local(), { url: 'file:///etc/passwd' })).rejects.toThrow(/Only http and https/);
    await expect(runTool(local(), { url: 'ftp://example.com/x' })).rejects.toThrow(/Only http and https/);
    await expect(runTool(local(), { url: `http://user:pw@127.0.0.1:${server.port}/` })).rejects.toThrow(/passwords/);
    await expect(runTool(local(), { url: 'not a url' })).rejects.toThrow(/not a valid absolute URL/);
  });
});
