import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { serve as serveNode } from '@hono/node-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteSessionStore } from '../../../src/memory/node.js';
import { createApp, SqliteRunStore } from '../../../src/server/index.js';
import { hasChromium, launchChromium } from '../../studio/studio-browser.fixture.js';
import { deployed, protocolAgents } from './protocol-fixtures.js';
import { LIVE_ANSWER, type StreamingModel, startStreamingModel } from './streaming-model.js';

const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'ui-chat');
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

let dir: string;
let url: string;
let browser: Browser;
let close: () => Promise<void>;
let model: StreamingModel;

/** Builds the fixture page with Vite and @vitejs/plugin-react into `outDir`. */
async function buildPage(outDir: string): Promise<void> {
  const { build } = await import('vite');
  const react = (await import('@vitejs/plugin-react')).default;
  await build({
    root: FIXTURE,
    base: './',
    logLevel: 'warn',
    configFile: false,
    plugins: [react()],
    build: { outDir, emptyOutDir: true, minify: false },
  });
}

beforeAll(async () => {
  if (!hasChromium) return;
  dir = mkdtempSync(join(tmpdir(), 'thinkflow-use-chat-'));
  const page = join(dir, 'page');
  await buildPage(page);
  // The real app on a real port, with the page served from the same origin (as a site's own server would).
  const store = new SqliteRunStore({ path: join(dir, 'runs.db') });
  const sessions = new SqliteSessionStore({ dataDir: dir });
  model = await startStreamingModel();
  const app = createApp({ agents: { ...protocolAgents, ...model.agents }, store, sessions });
  app.hono.get('/chat/*', (c) => {
    const file = c.req.path.slice('/chat/'.length) || 'index.html';
    if (file.includes('..')) return c.notFound();
    try {
      return c.body(readFileSync(join(page, file)), 200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      });
    } catch {
      return c.notFound();
    }
  });
  const server = serveNode({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
  close = async () => {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
    await app.runs.close({ timeoutMs: 500 });
    await store.close();
    await sessions.close?.();
    await model.close();
  };
}, 120_000);

afterAll(async () => {
  await close?.();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function openChat(agent: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${url}/chat/index.html?agent=${agent}`);
  return { page, errors };
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

describe.skipIf(!hasChromium)('useChat in Chromium', { timeout: 60_000 }, () => {
  it('shows the streamed answer and the tool part', async () => {
    const { page, errors } = await openChat('helper');
    await send(page, 'Weather in Paris?');
    await page.getByText('It is sunny in Paris. (1 tool call)').waitFor();
    const tool = page.getByTestId('tool');
    expect(await tool.getAttribute('data-tool')).toBe('weather');
    expect(await tool.getAttribute('data-state')).toBe('output-available');
    expect(await page.getByTestId('tool-output').textContent()).toBe('Sunny in Paris');
    expect(await page.getByTestId('assistant-text').allTextContents()).toEqual([
      'Let me check.',
      'It is sunny in Paris. (1 tool call)',
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('approves a call with addToolApprovalResponse and shows the run go on', async () => {
    deployed.length = 0;
    const { page, errors } = await openChat('ops');
    await send(page, 'Ship the api');
    const approve = page.getByRole('button', { name: 'Approve' });
    await approve.waitFor();
    expect(await page.getByTestId('tool').getAttribute('data-state')).toBe('approval-requested');
    expect(deployed).toEqual([]);
    await approve.click();
    await page.getByText('Deployed the api.').waitFor();
    expect(deployed).toEqual(['api']);
    expect(await page.getByTestId('tool-output').textContent()).toBe('deployed api');
    // One assistant message: the approval continued it.
    expect(await page.locator('section[data-role="assistant"]').count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it.each(['live-native', 'live-react'])(
    '%s: renders the answer piece by piece as the model writes it',
    async (agent) => {
      const { page, errors } = await openChat(agent);
      // Each text the page shows, and how many deltas the model had sent when it showed it.
      await page.exposeFunction('modelSent', () => model.sent);
      await page.evaluate(() => {
        const seen: { text: string; sent?: number }[] = [];
        Object.assign(window, { seen });
        const page = window as unknown as { modelSent(): Promise<number> };
        new MutationObserver(() => {
          const text = document.querySelector('[data-testid="assistant-text"]')?.textContent ?? '';
          if (text === '' || seen.at(-1)?.text === text) return;
          const entry: { text: string; sent?: number } = { text };
          seen.push(entry);
          void page.modelSent().then((sent) => {
            entry.sent = sent;
          });
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await send(page, 'What is the answer?');
      await page.getByText(LIVE_ANSWER).waitFor();
      const seen = await page.evaluate(() => (window as unknown as { seen: { text: string; sent?: number }[] }).seen);
      expect(seen.at(-1)?.text).toBe(LIVE_ANSWER);
      expect(seen.length).toBeGreaterThanOrEqual(4);
      expect(seen[0].sent).toBeLessThan(4);
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
