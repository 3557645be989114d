import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../server/spawn-server.js';
import { ask as askIn, hasChromium, STUDIO_AUTH, type Studio, startStudio } from './studio-browser.fixture.js';

describe.skipIf(!hasChromium)('thinkflow studio in headless Chromium', () => {
  let studio: Studio;
  let DOCS: string;
  let server: Studio['server'];
  let browser: Studio['browser'];
  let dir: string;

  beforeAll(async () => {
    studio = await startStudio();
    ({ docs: DOCS, server, browser, dir } = studio);
  }, 180_000);

  afterAll(async () => {
    await studio?.close();
  });

  const open = (hash?: string) => studio.open(hash);
  const ask = (page: Page, agent: string, question: string) => askIn(page, agent, question);

  it('chats: the answer streams in and the tool step appears, with no outside request', async () => {
    const { page, errors, requests } = await open();
    await ask(page, 'helper', 'What is the meaning of life?');
    await page.waitForSelector('#answer[data-status=done]');
    // The token of the printed URL was kept and taken out of the address bar.
    expect(page.url()).not.toContain('token');
    expect(await page.textContent('#answer')).toBe('The answer is 42.');
    expect(await page.textContent('#tree .node.tool[data-tool=lookup] .args')).toContain('meaning of life');
    expect(await page.textContent('#tree .node.tool .output')).toBe('meaning of life: forty-two');
    expect(await page.textContent('#tree .node.final')).toContain('The answer is 42.');
    // Tokens and cost per step in the live tree (the scripted model is priced at zero).
    expect(await page.textContent('#tree .step[data-step="0"] .tokens')).toBe('430 tokens');
    expect(await page.textContent('#tree .step[data-step="1"] .tokens')).toBe('469 tokens');
    expect(await page.textContent('#tree .step[data-step="1"] .cost')).toBe('$0.000000');
    await page.screenshot({ path: join(DOCS, 'studio-chat.png') });
    expect(errors).toEqual([]);
    expect(requests.every((url) => url.startsWith(server.url))).toBe(true);
    await page.close();
  }, 60_000);

  it('sends the earlier turns of the chat as the run history', async () => {
    const { page, errors } = await open();
    // A slow session read: the question below is sent while New chat is still drawing. It must go to
    // the new session, and the older drawing must not replace the newer one.
    await page.route('**/v1/sessions/*', async (route) => {
      if (route.request().method() === 'GET') await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
    });
    await page.click('button:has-text("New chat")');
    await ask(page, 'echo', 'first');
    await page.waitForSelector('#answer[data-status=done]');
    await ask(page, 'echo', 'second');
    await page.waitForFunction(() => document.querySelector('#answer')?.textContent === 'first | second');
    expect(await page.locator('#messages .msg.user').allTextContents()).toEqual(['first', 'second']);
    await page.click('button:has-text("New chat")');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('approves a pending call and the run resumes', async () => {
    const { page, errors } = await open();
    await ask(page, 'ops', 'Ship it');
    await page.waitForSelector('[data-approval] button:has-text("Approve")');
    expect(await page.textContent('[data-approval] pre')).toContain('"service": "api"');
    await page.screenshot({ path: join(DOCS, 'studio-approval.png') });
    await page.click('[data-approval] button:has-text("Approve")');
    await page.waitForSelector('#answer[data-status=done]');
    expect(await page.textContent('#answer')).toBe('Deployment handled.');
    expect(await page.textContent('#tree .node.tool .output')).toBe('deployed api');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('answers an ask_user question and the run resumes with it', async () => {
    const { page, errors } = await open();
    await ask(page, 'asker', 'Pick a colour for me');
    await page.waitForSelector('form.ask input[name=answer]');
    expect(await page.textContent('form.ask')).toContain('Which colour?');
    await page.fill('form.ask input[name=answer]', 'teal');
    await page.click('form.ask button[type=submit]');
    await page.waitForSelector('#answer[data-status=done]');
    expect(await page.textContent('#answer')).toBe('You picked teal.');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('reloads mid-run and the tree goes on without duplicates', async () => {
    const { page, errors } = await open();
    await ask(page, 'slow', 'Take your time');
    await page.waitForSelector('#tree .step[data-step="2"]');
    await page.reload();
    await page.waitForSelector('#answer[data-status=done]', { timeout: 30_000 });
    const steps = await page.locator('#tree .step').evaluateAll((els) => els.map((el) => el.getAttribute('data-step')));
    expect(steps).toEqual(['0', '1', '2', '3', '4', '5', '6']);
    expect(await page.locator('#tree .node.tool').count()).toBe(6);
    expect(await page.textContent('#answer')).toBe('Finished after 6 lookups.');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('opens a running run from the list and cancels it', async () => {
    const { page, errors } = await open();
    await ask(page, 'endless', 'Never stop');
    await page.waitForSelector('#tree .step[data-step="2"]');
    await page.click('header button[data-tab=Runs]');
    await page.waitForSelector('#runs tr.run');
    await page.selectOption('select[name=status]', 'running');
    await page.waitForSelector('#runs tr.run .status.running');
    await page.click('#runs tr.run');
    await page.waitForSelector('#cancel');
    await page.waitForSelector('#tree details.raw');
    await page.screenshot({ path: join(DOCS, 'studio-run.png') });
    await page.click('#cancel');
    await page.waitForSelector('#run-status:has-text("aborted")', { timeout: 20_000 });
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('lists runs and filters them by agent and status', async () => {
    const { page, errors } = await open('#runs');
    await page.waitForSelector('#runs tr.run');
    expect(await page.locator('#runs tr.run').count()).toBe(7);
    await page.selectOption('select[name=agent]', 'helper');
    await page.waitForFunction(() => document.querySelectorAll('#runs tr.run').length === 1);
    await page.selectOption('select[name=agent]', '');
    await page.waitForFunction(() => document.querySelectorAll('#runs tr.run').length === 7);
    await page.selectOption('select[name=status]', 'aborted');
    await page.waitForFunction(() => {
      const rows = document.querySelectorAll('#runs tr.run');
      return rows.length === 1 && rows[0].textContent?.includes('endless');
    });
    await page.selectOption('select[name=status]', '');
    await page.waitForFunction(() => document.querySelectorAll('#runs tr.run').length === 7);
    await page.screenshot({ path: join(DOCS, 'studio-runs.png') });
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('keeps the chat in the server session: a reload shows it, and the next turn gets its history from there', async () => {
    const { page, errors } = await open();
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') sent.push(request.postData() ?? '');
    });
    await ask(page, 'echo', 'one');
    await page.waitForSelector('#answer[data-status=done]');
    await page.reload();
    await page.waitForSelector('#answer[data-status=done]');
    expect(await page.locator('#messages .msg.user').allTextContents()).toEqual(['one']);
    expect(await page.textContent('#answer')).toBe('one');
    await ask(page, 'echo', 'two');
    await page.waitForFunction(() => document.querySelector('#answer')?.textContent === 'one | two');
    // The page sent only the new question: the earlier turn came from the session store.
    expect(sent.map((body) => JSON.parse(body))).toEqual([
      { agent: 'echo', input: 'one' },
      { agent: 'echo', input: 'two' },
    ]);
    const session = await page.getAttribute('#messages', 'data-session');
    await expect
      .poll(
        async () =>
          (
            (await (await fetch(`${server.url}/v1/sessions/${session}`, { headers: STUDIO_AUTH })).json()) as {
              messages: unknown[];
            }
          ).messages,
      )
      .toEqual([
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'one' },
        { role: 'user', content: 'two' },
        { role: 'assistant', content: 'one | two' },
      ]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('with no config offers the demo agent, and asks once for the token the API needs', async () => {
    const demo = await spawnCli(['studio', '--port', '0', '--data-dir', join(dir, 'demo')], {
      THINKFLOW_API_TOKENS: 'studio-s3cret',
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${demo.url}/studio`);
      await page.waitForSelector('#token-form');
      await page.fill('#token-form input[name=token]', 'studio-s3cret');
      await page.click('#token-form button[type=submit]');
      await page.waitForSelector('#chat-form');
      expect(await page.locator('#chat-form select[name=agent] option').allTextContents()).toEqual(['demo']);
      await ask(page, 'demo', 'What is 12 * 7?');
      // The event stream is read with the bearer token too: the answer only arrives through it.
      await page.waitForSelector('#answer[data-status=done]', { timeout: 30_000 });
      expect(await page.textContent('#answer')).toContain('84');
      expect(await page.textContent('#tree .node.tool[data-tool=calculator] .args')).toContain('12 * 7');
      expect(await page.textContent('body')).not.toContain('studio-s3cret');
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await demo.kill();
    }
  }, 180_000);
});
