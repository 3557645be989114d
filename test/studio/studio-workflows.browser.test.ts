// The studio's Workflows tab in headless Chromium, on the fixture config's workflows: start `review` from its
// input form, watch its approve step suspend, answer the resume form (a refused payload first) and see the run
// done; open a run by id and cancel it; a failed step; `signup`'s event wait; a server with no workflows.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../server/spawn-server.js';
import { hasChromium, STUDIO_AUTH, type Studio, startStudio } from './studio-browser.fixture.js';

describe.skipIf(!hasChromium)('thinkflow studio workflows in headless Chromium', () => {
  let studio: Studio;

  beforeAll(async () => {
    studio = await startStudio();
  }, 180_000);

  afterAll(async () => {
    await studio?.close();
  });

  const box = (path: string, status: string) => `.wf-box[data-path="${path}"][data-status=${status}]`;
  const resume = '[data-suspended="2.approve"] form';

  it('starts a run, marks the suspended step, refuses a bad payload inline, and resumes it to done', async () => {
    const { page, errors, requests } = await studio.open('#workflows');
    await page.waitForSelector('#wf-start');
    expect(await page.locator('select[name=workflow] option').allTextContents()).toEqual(['review', 'signup']);
    // The graph of the workflow before any run: every step pending.
    expect(await page.locator('.wf-box[data-status=pending]').count()).toBe(5);
    await page.fill('#wf-start input[name=topic]', 'tides');
    await page.fill('#wf-start input[name=words]', '40');
    await page.click('#wf-start button[type=submit]');

    await page.waitForSelector('#wf-run-status[data-status=suspended]');
    for (const path of ['0.draft', '1.spell', '1.tone']) await page.waitForSelector(box(path, 'done'));
    await page.waitForSelector(box('2.approve', 'suspended'));
    await page.waitForSelector(box('3.send', 'pending'));
    expect(await page.textContent('[data-suspended="2.approve"] pre')).toContain('Approve this draft?');
    const runId = page.url().split('#workflow-run/')[1]!;
    // The run is listed among the latest runs (GET /v1/workflows/runs, the caller's own).
    await page.waitForSelector(`#wf-runs a[href="#workflow-run/${runId}"]`);
    expect(await page.textContent('#wf-runs')).toContain('suspended');

    // A score the step's resume schema refuses: the server's 400 shows in the form, the run stays suspended.
    await page.fill(`${resume} input[name=reviewer]`, 'ada');
    await page.fill(`${resume} input[name=score]`, '9');
    await page.selectOption(`${resume} select[name=channel]`, { label: 'chat' });
    await page.check(`${resume} input[name=urgent]`);
    await page.fill(`${resume} input[name="team.name"]`, 'docs');
    await page.click(`${resume} button[type=submit]`);
    await page.waitForFunction(
      (sel) => /score/.test(document.querySelector(`${sel} [role=alert]`)?.textContent ?? ''),
      resume,
    );
    expect(await page.textContent(`${resume} [role=alert]`)).toBe(
      'The payload for step "2.approve" does not fit its schema: score: Too big: expected number to be <=5',
    );
    const stored = await fetch(`${studio.server.url}/v1/workflows/runs/${runId}`, { headers: STUDIO_AUTH });
    expect(((await stored.json()) as { status: string }).status).toBe('suspended');
    expect(await page.getAttribute('#wf-run-status', 'data-status')).toBe('suspended');
    await page.screenshot({ path: join(studio.docs, 'studio-workflow.png') });

    // The form kept what was typed: fix the score alone and send it again.
    await page.fill(`${resume} input[name=score]`, '4');
    await page.click(`${resume} button[type=submit]`);
    await page.waitForSelector('#wf-run-status[data-status=done]');
    await page.waitForSelector(box('2.approve', 'done'));
    await page.waitForSelector(box('3.send', 'done'));
    expect(await page.textContent(`${box('3.send', 'done')} .status`)).toBe('done · 2/2 done');
    expect(await page.locator('#wf-suspended form').count()).toBe(0);
    expect(await page.textContent('#wf-output')).toContain('sent to ada via chat');

    // The run the API keeps is the one the page drew, with the payload as the form built it.
    const done = (await (
      await fetch(`${studio.server.url}/v1/workflows/runs/${runId}`, { headers: STUDIO_AUTH })
    ).json()) as { status: string; output: string[] };
    expect(done).toMatchObject({ status: 'done', output: ['sent to ada via chat', 'sent to team docs'] });
    expect(errors).toEqual([]);
    expect(requests.every((url) => url.startsWith(studio.server.url))).toBe(true);
    await page.close();
  }, 60_000);

  it('opens a run by id with its stored statuses, shows a step’s checkpoints on a click, and cancels it', async () => {
    const started = (await (
      await fetch(`${studio.server.url}/v1/workflows/review/runs?wait=true`, {
        method: 'POST',
        headers: { ...STUDIO_AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ input: { topic: 'moss', words: 5 } }),
      })
    ).json()) as { id: string; status: string };
    expect(started.status).toBe('suspended');
    const { page, errors } = await studio.open('#workflows');
    await page.waitForSelector('#open-run');
    await page.fill('#open-run input[name=run-id]', started.id);
    await page.click('#open-run button[type=submit]');
    await page.waitForSelector(box('2.approve', 'suspended'));
    await page.waitForSelector(box('0.draft', 'done'));
    // A click on a step shows its checkpoints.
    await page.click('.wf-box[data-path="0.draft"]');
    expect(await page.textContent('#wf-detail')).toContain('A 5-word note on moss.');
    // Cancel: the run ends cancelled, and its resume form goes.
    await page.click('#wf-cancel');
    await page.waitForSelector('#wf-run-status[data-status=cancelled]');
    expect(await page.locator('#wf-suspended form').count()).toBe(0);
    expect(await page.isHidden('#wf-cancel')).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('marks the step that failed and shows its error', async () => {
    const { page, errors } = await studio.open('#workflows/review');
    await page.waitForSelector('#wf-start');
    await page.fill('#wf-start input[name=topic]', 'nothing');
    await page.fill('#wf-start input[name=words]', '0');
    await page.click('#wf-start button[type=submit]');
    await page.waitForSelector('#wf-run-status[data-status=failed]');
    await page.waitForSelector(box('0.draft', 'failed'));
    await page.waitForSelector(box('1.spell', 'pending'));
    expect(await page.textContent('#wf-error')).toBe('A note needs at least one word, not 0.');
    await page.click('.wf-box[data-path="0.draft"]');
    expect(await page.textContent('#wf-detail .error-text')).toBe('A note needs at least one word, not 0.');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('waits for an event: a string input, and a payload with a JSON field for its array', async () => {
    const { page, errors } = await studio.open('#workflows/signup');
    await page.waitForSelector('#wf-start input[name=value]');
    await page.fill('#wf-start input[name=value]', 'ann');
    await page.click('#wf-start button[type=submit]');
    await page.waitForSelector(box('0.event', 'suspended'));
    const form = '[data-suspended="0.event"] form';
    expect(await page.textContent('[data-suspended="0.event"]')).toContain('Waiting for event “confirmed”');
    await page.fill(`${form} input[name=email]`, 'ann@example.com');
    await page.fill(`${form} textarea[name=tags]`, '["beta", ');
    await page.click(`${form} button[type=submit]`);
    // Not JSON: the page says so and sends nothing.
    await page.waitForFunction(
      (sel) => /tags is not JSON/.test(document.querySelector(`${sel} [role=alert]`)?.textContent ?? ''),
      form,
    );
    await page.fill(`${form} textarea[name=tags]`, '["beta", "news"]');
    await page.click(`${form} button[type=submit]`);
    await page.waitForSelector('#wf-run-status[data-status=done]');
    await page.waitForSelector(box('0.event', 'done'));
    expect(JSON.parse((await page.textContent('#wf-output'))!.replace('Output: ', ''))).toEqual({
      email: 'ann@example.com',
      tags: ['beta', 'news'],
    });
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('says so when the server serves no workflows', async () => {
    const demo = await spawnCli(['studio', '--port', '0', '--data-dir', join(studio.dir, 'demo'), '--no-auth'], {});
    try {
      const page = await studio.browser.newPage();
      await page.goto(`${demo.url}/studio#workflows`);
      await page.waitForSelector('#no-workflows');
      expect(await page.textContent('#no-workflows')).toContain('serves no workflows');
      await page.close();
    } finally {
      await demo.kill();
    }
  }, 60_000);
});
