// A real Chromium, an attacker's page on another origin and a rebinding name (both mapped to 127.0.0.1 by
// --host-resolver-rules), against real `thinkflow serve`, `thinkflow studio` and `thinkflow mcp-serve --http`
// processes: nothing the page sends may start a run, approve a call or read a file, and the studio keeps working.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium } from '../../studio/studio-browser.fixture.js';
import { eventually } from '../spawn-server.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CONFIG = join(import.meta.dirname, 'attack-config.fixture.ts');

interface Child {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Spawns the CLI from source and resolves with the first URL printed on a line matching `ready`. */
function start(args: string[], ready: RegExp, env: Record<string, string> = {}): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, THINKFLOW_API_TOKENS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 120 s:\n${output}`)), 120_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1], output: () => output });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

/** The attacker's own web server: its pages, and a sink that records what a page posted to it. */
function attackerServer(pages: Record<string, string>, sink: string[]): Promise<Server> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      if (request.url?.startsWith('/sink')) sink.push(`${request.headers['content-type'] ?? ''}|${body}`);
      const page = pages[request.url ?? ''];
      response.writeHead(page ? 200 : 204, { 'content-type': 'text/html' });
      response.end(page ?? '');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The page's attacks on one target origin: no-cors text/plain and typeless POSTs, and a text/plain form. */
function csrfPage(target: string, sink: string): string {
  const routes = ['/v1/agents/echo/runs', '/v1/chat/completions', '/v1/hooks/ticket', '/v1/sessions/default/runs'];
  const body = JSON.stringify({
    input: 'pwned',
    agent: 'echo',
    model: 'echo',
    messages: [{ role: 'user', content: 'pwned' }],
  });
  return `<!doctype html><body><iframe name="sink-frame"></iframe>
<form id="f" method="POST" enctype="text/plain" target="sink-frame" action="${target}/v1/agents/echo/runs">
<input name='{"input":"pwned-form","x":"' value='"}'></form>
<script>
window.attack = async () => {
  const body = ${JSON.stringify(body)};
  for (const base of [${JSON.stringify(target)}, ${JSON.stringify(sink)}]) {
    for (const route of ${JSON.stringify(routes)}) {
      await fetch(base + route, { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body }).catch(() => {});
      await fetch(base + route, { method: 'POST', mode: 'no-cors', body: new Blob([body]) }).catch(() => {});
    }
  }
  document.getElementById('f').submit();
};
</script></body>`;
}

describe.skipIf(!hasChromium)('a web page cannot drive a local thinkflow (Chromium)', () => {
  let dir: string;
  let browser: Browser;
  let attacker: Server;
  let serve: Child;
  let studio: Child;
  let mcp: Child;
  const sink: string[] = [];
  const pages: Record<string, string> = {};
  let attackerOrigin = '';

  beforeAll(async () => {
    execFileSync('npm', ['run', 'build:studio'], { cwd: ROOT, stdio: 'ignore' });
    dir = mkdtempSync(join(tmpdir(), 'thinkflow-attacks-'));
    writeFileSync(join(dir, 'secret.txt'), 'the secret file');
    const env = { MARKER_DIR: dir };
    [serve, studio, mcp] = await Promise.all([
      start(['serve', '--config', CONFIG, '--port', '0', '--data-dir', join(dir, 'serve')], /serving .* on (\S+)/, env),
      start(
        ['studio', '--config', CONFIG, '--port', '0', '--data-dir', join(dir, 'studio')],
        /thinkflow studio: (\S+)/,
        env,
      ),
      start(['mcp-serve', '--tools', 'files', '--http', '0', '--root', dir], /MCP server .* on (\S+)/),
    ]);
    attacker = await attackerServer(pages, sink);
    attackerOrigin = `http://attacker.test:${(attacker.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--host-resolver-rules=MAP attacker.test 127.0.0.1, MAP rebind.test 127.0.0.1',
      ],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    for (const c of [serve, studio, mcp]) c?.child.kill('SIGKILL');
    attacker?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A page on the attacker's origin with `html`, served by the attacker's server. */
  async function attackerPage(html: string): Promise<Page> {
    const path = `/page-${Object.keys(pages).length}.html`;
    pages[path] = html;
    const page = await browser.newPage();
    await page.goto(`${attackerOrigin}${path}`);
    return page;
  }

  /** A page whose origin is `http://rebind.test:<port>`: what a DNS-rebinding page is once the name points at 127.0.0.1. */
  async function rebindingPage(target: string): Promise<{ page: Page; status: number | undefined }> {
    const page = await browser.newPage();
    const response = await page.goto(target.replace('127.0.0.1', 'rebind.test'));
    return { page, status: response?.status() };
  }

  const runsOf = async (base: string, headers: Record<string, string> = {}) =>
    (
      (await (await fetch(`${base}/v1/runs?limit=500`, { headers })).json()) as {
        runs: { agent: string; id: string }[];
      }
    ).runs;

  it('no-cors text/plain and typeless POSTs and a text/plain form start nothing on serve or studio', async () => {
    const serveUrl = serve.url;
    const studioBase = new URL(studio.url).origin;
    for (const target of [serveUrl, serveUrl.replace('127.0.0.1', 'localhost'), studioBase]) {
      const page = await attackerPage(csrfPage(target, `${attackerOrigin}/sink`));
      const sent = sink.length;
      await page.evaluate(() => (window as unknown as { attack: () => Promise<void> }).attack());
      await page.waitForLoadState('networkidle');
      // The control: the browser did send every attack (to the attacker's own sink), so the refusals are the server's.
      expect(sink.length - sent).toBe(8);
      expect(sink.slice(sent).filter((s) => s.startsWith('text/plain')).length).toBe(4);
      await page.close();
    }
    expect(await runsOf(serveUrl)).toEqual([]);
    const session = (await (await fetch(`${serveUrl}/v1/sessions/default`)).json()) as { messages: unknown[] };
    expect(session.messages).toEqual([]);
    const token = new URL(studio.url).searchParams.get('token') ?? '';
    expect(await runsOf(studioBase, { authorization: `Bearer ${token}` })).toEqual([]);
  }, 60_000);

  it('a rebinding page can neither list a waiting approval nor approve it: the tool never runs', async () => {
    const started = await fetch(`${serve.url}/v1/agents/ops/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'ship it' }),
    });
    const { id } = (await started.json()) as { id: string };
    await eventually(async () => {
      const run = (await (await fetch(`${serve.url}/v1/runs/${id}`)).json()) as { status: string };
      return run.status === 'waiting' ? true : undefined;
    });
    const { page, status } = await rebindingPage(`${serve.url}/health`);
    expect(status).toBe(403);
    const seen = await page.evaluate(async (runId) => {
      const list = await fetch('/v1/runs?status=waiting');
      const run = await fetch(`/v1/runs/${runId}`);
      const trace = await fetch(`/v1/runs/${runId}/trace`);
      const approve = await fetch(`/v1/runs/${runId}/approvals`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ approved: true }),
      });
      return {
        statuses: [list.status, run.status, trace.status, approve.status],
        text: (await list.text()) + (await run.text()) + (await trace.text()) + (await approve.text()),
      };
    }, id);
    expect(seen.statuses).toEqual([403, 403, 403, 403]);
    expect(seen.text).not.toContain('deploy');
    expect(seen.text).not.toContain('ship it');
    await page.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(join(dir, 'deployed-prod'))).toBe(false);
    expect(((await (await fetch(`${serve.url}/v1/runs/${id}`)).json()) as { status: string }).status).toBe('waiting');
    // The control: the owner's approval runs the tool and writes the marker.
    await fetch(`${serve.url}/v1/runs/${id}/approvals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"approved":true}',
    });
    await eventually(() => (existsSync(join(dir, 'deployed-prod')) ? true : undefined));
  }, 60_000);

  it('a rebinding or cross-site page cannot call read_file on mcp-serve --http', async () => {
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'read_file', arguments: { path: 'secret.txt' } },
    });
    const { page, status } = await rebindingPage(mcp.url);
    expect(status).toBe(403);
    const answer = await page.evaluate(async (body) => {
      const response = await fetch('/mcp', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body,
      });
      return { status: response.status, text: await response.text() };
    }, call);
    expect(answer.status).toBe(403);
    expect(answer.text).not.toContain('the secret file');
    await page.close();
    // The control: a local client (Host 127.0.0.1, no Origin) reads it.
    const local = await fetch(mcp.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: call,
    });
    expect(await local.text()).toContain('the secret file');
  }, 60_000);

  it("the studio's own page keeps working from the printed URL, and refuses to be framed", async () => {
    expect(studio.url).toMatch(/\/studio\?token=[\w-]{20,}$/);
    const base = new URL(studio.url).origin;
    expect((await fetch(`${base}/v1/runs`)).status).toBe(401);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto(studio.url);
    expect(response?.headers()['x-frame-options']).toBe('DENY');
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.selectOption('#chat-form select[name=agent]', 'echo');
    await page.fill('#chat-form input[name=question]', 'hello studio');
    await page.click('#chat-form button[type=submit]');
    await page.waitForSelector('#answer[data-status=done]');
    expect(await page.textContent('#answer')).toBe('echo: hello studio');
    expect(page.url()).not.toContain('token');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
