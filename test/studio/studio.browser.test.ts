import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, spawnCli } from '../server/spawn-server.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const ROOT = join(import.meta.dirname, '..', '..');
/** Screenshots go to a temp dir; THINKFLOW_UPDATE_SCREENSHOTS=1 refreshes the ones the README shows in docs/. */
let DOCS = join(ROOT, 'docs');
if (!hasChromium)
  console.warn(`Skipping the studio browser test: ${CHROMIUM} is missing (apt-get install -y chromium).`);

describe.skipIf(!hasChromium)('thinkflow studio in headless Chromium', () => {
  let browser: Browser;
  let server: ServerProcess;
  let dir: string;

  beforeAll(async () => {
    // The page script is built, as `npm run build` (the prepare script) does for the package.
    execFileSync('npm', ['run', 'build:studio'], { cwd: ROOT, stdio: 'ignore' });
    dir = mkdtempSync(join(tmpdir(), 'thinkflow-studio-'));
    server = await spawnCli(
      ['studio', '--config', join(import.meta.dirname, 'studio-config.fixture.ts'), '--port', '0', '--data-dir', dir],
      {},
    );
    // launch() gives each browser a fresh temporary profile (it refuses an explicit --user-data-dir).
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
      ],
    });
    if (process.env.THINKFLOW_UPDATE_SCREENSHOTS !== '1') DOCS = join(dir, 'screenshots');
    mkdirSync(DOCS, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(hash = '#chat'): Promise<{ page: Page; errors: string[]; requests: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`${server.url}/studio${hash}`);
    return { page, errors, requests };
  }

  async function ask(page: Page, agent: string, question: string): Promise<void> {
    await page.selectOption('#chat-form select[name=agent]', agent);
    await page.fill('#chat-form input[name=question]', question);
    await page.click('#chat-form button[type=submit]');
  }

  it('chats: the answer streams in and the tool step appears, with no outside request', async () => {
    const { page, errors, requests } = await open();
    await ask(page, 'helper', 'What is the meaning of life?');
    await page.waitForSelector('#answer[data-status=done]');
    expect(await page.textContent('#answer')).toBe('The answer is 42.');
    expect(await page.textContent('#tree .node.tool[data-tool=lookup] .args')).toContain('meaning of life');
    expect(await page.textContent('#tree .node.tool .output')).toBe('meaning of life: forty-two');
    expect(await page.textContent('#tree .node.final')).toContain('The answer is 42.');
    await page.screenshot({ path: join(DOCS, 'studio-chat.png') });
    expect(errors).toEqual([]);
    expect(requests.every((url) => url.startsWith(server.url))).toBe(true);
    await page.close();
  }, 60_000);

  it('sends the earlier turns of the chat as the run history', async () => {
    const { page, errors } = await open();
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

  it('opens a JSONL trace file downloaded from the server', async () => {
    const list = (await (await fetch(`${server.url}/v1/runs?agent=helper`)).json()) as { runs: { id: string }[] };
    const response = await fetch(`${server.url}/v1/runs/${list.runs[0].id}/trace`);
    expect(response.headers.get('content-type')).toContain('ndjson');
    const file = join(dir, 'run.jsonl');
    writeFileSync(file, await response.text());
    const { page, errors } = await open('#trace');
    await page.setInputFiles('#trace-file', file);
    await page.waitForSelector('#tree .node.final');
    expect(await page.textContent('#tree .node.tool .output')).toBe('meaning of life: forty-two');
    await page.screenshot({ path: join(DOCS, 'studio-trace.png') });
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('opens a 500-step trace file and scrolls to its last step', async () => {
    const lines = [
      {
        type: 'run_start',
        runId: 'big',
        ts: 0,
        input: 'long',
        model: 'scripted',
        protocol: 'native',
        tools: ['lookup'],
      },
    ];
    for (let step = 0; step < 500; step++) {
      lines.push(
        { type: 'step_start', runId: 'big', ts: step, step } as never,
        {
          type: 'tool_start',
          runId: 'big',
          ts: step,
          step,
          callId: `c${step}`,
          tool: 'lookup',
          input: { topic: `t${step}` },
        } as never,
        {
          type: 'tool_end',
          runId: 'big',
          ts: step,
          step,
          callId: `c${step}`,
          tool: 'lookup',
          ms: 1,
          ok: true,
          output: `out ${step}`,
        } as never,
      );
    }
    lines.push({ type: 'final', runId: 'big', ts: 500, step: 499, output: 'done at last' } as never);
    const file = join(dir, 'big.jsonl');
    writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n'));
    const { page, errors } = await open('#trace');
    const started = Date.now();
    await page.setInputFiles('#trace-file', file);
    await page.waitForSelector('#tree .node.final');
    const openedMs = Date.now() - started;
    expect(await page.locator('#tree .step').count()).toBe(500);
    await page.locator('#tree .step[data-step="499"]').scrollIntoViewIfNeeded();
    expect(await page.locator('#tree .step[data-step="499"] .node.tool .output').textContent()).toBe('out 499');
    console.log(`studio: a 500-step trace opened in ${openedMs} ms`);
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
