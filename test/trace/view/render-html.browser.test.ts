import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../../src/trace/view/render-html.js';
import { sampleTrace } from '../sample-trace.js';
import { workflowTrace } from '../workflow-trace.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`Skipping the HTML report browser test: ${CHROMIUM} is missing (apt-get install -y chromium).`);
}

describe.skipIf(!hasChromium)('renderHtml in headless Chromium', () => {
  let browser: Browser;
  let dir: string;
  let url: string;
  let workflowUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkflow-html-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, renderHtml(sampleTrace({ modelText: '<script>window.pwned=1</script>I will calculate.' })));
    url = pathToFileURL(file).href;
    const workflowFile = join(dir, 'workflow.html');
    writeFileSync(workflowFile, renderHtml((await workflowTrace()).events));
    workflowUrl = pathToFileURL(workflowFile).href;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders the status, the bars and the steps without requests or script errors', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(url);
    expect(await page.textContent('#status')).toBe('done');
    expect(await page.locator('.row').count()).toBe(2);
    expect(await page.locator('.bar.tool').count()).toBe(1);
    const width = await page
      .locator('.row[data-step="1"] .bar.step')
      .evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeGreaterThan(10);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    expect(requests.filter((u) => u !== url)).toEqual([]);
    await page.close();
  }, 30_000);

  it('expands a step on a click and shows its model reply text', async () => {
    const page = await browser.newPage();
    await page.goto(url);
    const step = page.locator('#step-1');
    expect(await step.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    expect(await page.locator('#step-1 .call.response pre').first().isVisible()).toBe(false);
    await page.click('#step-1 > summary');
    expect(await step.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    await page.click('#step-1 .call.response > summary');
    const reply = page.locator('#step-1 .call.response pre').first();
    expect(await reply.isVisible()).toBe(true);
    expect(await reply.textContent()).toBe('<script>window.pwned=1</script>I will calculate.');
    await page.close();
  }, 30_000);

  it('opens a step when its timeline row is clicked', async () => {
    const page = await browser.newPage();
    await page.goto(url);
    await page.click('.row[data-step="2"]');
    expect(await page.locator('#step-2').evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    expect(await page.locator('#step-1').evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    await page.close();
  }, 30_000);

  it('draws a workflow: parallel steps as overlapping bars, a row click opens the step with its agent steps', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(workflowUrl);
    expect(await page.textContent('#status')).toBe('done');
    expect(await page.locator('.timeline.workflow .row').count()).toBe(9);
    const box = (path: string) =>
      page.locator(`.row[data-path="${path}"] .bar.step`).evaluate((el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right };
      });
    const lookup = await box('1.lookup');
    const draft = await box('1.draft');
    expect(draft.left).toBeLessThan(lookup.right);
    expect(lookup.left).toBeLessThan(draft.right);
    const send = await Promise.all([0, 1].map((i) => box(`3.notify/1.send[${i}]`)));
    expect(send[1]!.left).toBeLessThan(send[0]!.right);
    const indent = (path: string) =>
      page.locator(`details.wstep[data-path="${path}"]`).evaluate((el) => el.getBoundingClientRect().left);
    expect(await indent('3.notify/0.channels')).toBeGreaterThan(await indent('3.notify'));
    await page.click('.row[data-path="1.draft"]');
    const section = page.locator('details.wstep[data-path="1.draft"]');
    expect(await section.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    const agentStep = section.locator('details.step').first();
    await agentStep.locator('> summary').click();
    expect(await agentStep.locator('.tools .tool-name').first().textContent()).toBe('calculator');
    expect(await section.locator('pre.output').textContent()).toBe('We are on it: 42 engineers.');
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);
});
