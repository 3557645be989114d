// The studio's file views in headless Chromium: a trace file (and its replay against an agent), a
// 500-step trace in the virtual list, and an eval report with its traces.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evalSuite } from '../../src/cli/eval-command.js';
import { costOf } from '../../src/llm/index.js';
import { hasChromium, STUDIO_AUTH, type Studio, startStudio } from './studio-browser.fixture.js';

describe.skipIf(!hasChromium)('thinkflow studio files in headless Chromium', () => {
  let studio: Studio;
  /** A JSONL trace of the fixture's `helper` agent, downloaded from the server. */
  let helperTrace: string;

  beforeAll(async () => {
    studio = await startStudio();
    const run = (await (
      await fetch(`${studio.server.url}/v1/agents/helper/runs?wait=true`, {
        method: 'POST',
        headers: { ...STUDIO_AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ input: 'What is the meaning of life?' }),
      })
    ).json()) as { id: string };
    const response = await fetch(`${studio.server.url}/v1/runs/${run.id}/trace`, { headers: STUDIO_AUTH });
    expect(response.headers.get('content-type')).toContain('ndjson');
    helperTrace = join(studio.dir, 'helper.jsonl');
    writeFileSync(helperTrace, await response.text());
  }, 180_000);

  afterAll(async () => {
    await studio?.close();
  });

  it('opens a JSONL trace file downloaded from the server', async () => {
    const { page, errors } = await studio.open('#trace');
    await page.setInputFiles('#trace-file', helperTrace);
    await page.waitForSelector('#tree .node.final');
    expect(await page.textContent('#tree .node.tool .output')).toBe('meaning of life: forty-two');
    await page.screenshot({ path: join(studio.docs, 'studio-trace.png') });
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('replays a trace against the current agent and shows the first divergence', async () => {
    const { page, errors } = await studio.open('#trace');
    await page.setInputFiles('#trace-file', helperTrace);
    await page.waitForSelector('#replay');
    // The agent that recorded it takes the same steps.
    await page.selectOption('select[name=replay-agent]', 'helper');
    expect(await page.textContent('#replay')).toBe('Replay against helper');
    await page.click('#replay');
    await page.waitForSelector('#divergence[data-diverged=false]');
    expect(await page.textContent('#divergence')).toContain('helper now: done in 2 steps (recorded: done in 2)');
    // The same agent with new instructions asks the model something else at step 0.
    await page.selectOption('select[name=replay-agent]', 'helper-brief');
    await page.click('#replay');
    await page.waitForSelector('#divergence[data-diverged=true]');
    expect(await page.getAttribute('#divergence', 'data-step')).toBe('0');
    expect(await page.textContent('#divergence .label')).toBe('First divergence at step 0 (model_request)');
    expect(await page.textContent('#divergence')).toContain('message 1 (system): content differs');
    expect(await page.textContent('#divergence pre.actual')).toContain('Answer in one short sentence.');
    expect(await page.textContent('#divergence pre.expected')).not.toContain('Answer in one short sentence.');
    expect(await page.getAttribute('#tree .vrow.marked .step', 'data-step')).toBe('0');
    await page.screenshot({ path: join(studio.docs, 'studio-replay.png') });
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('opens a file holding two runs (--trace appends) one run at a time, and replays the one picked', async () => {
    const run = async (input: string) => {
      const { id } = (await (
        await fetch(`${studio.server.url}/v1/agents/helper/runs?wait=true`, {
          method: 'POST',
          headers: { ...STUDIO_AUTH, 'content-type': 'application/json' },
          body: JSON.stringify({ input }),
        })
      ).json()) as { id: string };
      return (await fetch(`${studio.server.url}/v1/runs/${id}/trace`, { headers: STUDIO_AUTH })).text();
    };
    const both = join(studio.dir, 'both.jsonl');
    writeFileSync(both, `${(await run('First question?')).trimEnd()}\n${await run('Second question?')}`);
    const { page, errors } = await studio.open('#trace');
    await page.setInputFiles('#trace-file', both);
    await page.waitForSelector('#tree .node.final');
    expect(await page.$$eval('#trace-run option', (options) => options.map((o) => o.textContent))).toEqual([
      'run 1 of 2: First question?',
      'run 2 of 2: Second question?',
    ]);
    await page.selectOption('#trace-run', '1');
    await page.waitForSelector('#tree .node.final');
    await page.selectOption('select[name=replay-agent]', 'helper');
    await page.click('#replay');
    await page.waitForSelector('#divergence[data-diverged=false]');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('opens a 500-step run with far fewer step rows in the page, scrolls to the last, keeps expanded steps open', async () => {
    const at = (step: number, type: string, rest: Record<string, unknown>) => ({
      type,
      runId: 'big',
      ts: step,
      step,
      ...rest,
    });
    const usage = { promptTokens: 1000, completionTokens: 200 };
    const lines: unknown[] = [
      {
        type: 'run_start',
        runId: 'big',
        ts: 0,
        input: 'long',
        model: 'openai:gpt-4o-mini',
        protocol: 'native',
        tools: ['lookup'],
      },
    ];
    for (let step = 0; step < 500; step++) {
      lines.push(
        at(step, 'step_start', {}),
        at(step, 'model_request', {
          model: 'openai:gpt-4o-mini',
          messages: [{ role: 'user', content: `ask ${step}` }],
        }),
        at(step, 'model_response', { text: '', usage, ms: 5, modelId: 'openai:gpt-4o-mini' }),
        at(step, 'tool_start', { callId: `c${step}`, tool: 'lookup', input: { topic: `t${step}` } }),
        at(step, 'tool_end', { callId: `c${step}`, tool: 'lookup', ms: 1, ok: true, output: `out ${step}` }),
      );
    }
    lines.push(at(499, 'final', { output: 'done at last' }));
    const file = join(studio.dir, 'big.jsonl');
    writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n'));
    const { page, errors } = await studio.open('#trace');
    const started = Date.now();
    await page.setInputFiles('#trace-file', file);
    await page.waitForSelector('#tree .step[data-step="0"]');
    const openedMs = Date.now() - started;
    const rows = await page.locator('#tree .step').count();
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThan(50);
    // Tokens and cost per step, priced as the run's total is.
    const cost = costOf('openai:gpt-4o-mini', usage) as number;
    expect(await page.textContent('#tree .step[data-step="0"] .tokens')).toBe('1200 tokens');
    expect(await page.textContent('#tree .step[data-step="0"] .cost')).toBe(`$${cost.toFixed(6)}`);
    await page.click('#tree .step[data-step="0"] details.raw summary:has-text("model request")');
    // The box's scroll height stands for all 500 steps, so the scrollbar is true.
    const heights = await page.$eval('#tree', (el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
    expect(heights.scroll).toBeGreaterThan(heights.client * 20);
    await page.$eval('#tree', (el) => {
      el.scrollTop = el.scrollHeight;
    });
    await page.waitForSelector('#tree .node.final');
    expect(await page.textContent('#tree .step[data-step="499"] .node.tool .output')).toBe('out 499');
    expect(await page.locator('#tree .step').count()).toBeLessThan(50);
    expect(await page.locator('#tree .step[data-step="0"]').count()).toBe(0);
    await page.$eval('#tree', (el) => {
      el.scrollTop = 0;
    });
    await page.waitForSelector('#tree .step[data-step="0"] details.raw[open]');
    console.log(`studio: a 500-step trace opened in ${openedMs} ms with ${rows} step rows built`);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('opens an eval report with its traces: pass or fail per case, score, and each run’s trace', async () => {
    const dir = join(studio.dir, 'eval');
    const suite = join(studio.dir, 'suite.json');
    writeFileSync(join(studio.dir, 'right.json'), JSON.stringify(['Paris']));
    writeFileSync(join(studio.dir, 'wrong.json'), JSON.stringify(['Lyon']));
    writeFileSync(
      suite,
      JSON.stringify({
        name: 'capitals',
        cases: [
          { id: 'france', input: 'Capital of France?', model: 'scripted:right.json', checks: [{ contains: 'Paris' }] },
          { id: 'france-again', input: 'And again?', model: 'scripted:wrong.json', checks: [{ contains: 'Paris' }] },
        ],
      }),
    );
    const report = join(studio.dir, 'report.json');
    const quiet = { stdout: () => {}, stderr: () => {}, color: false };
    const { report: written } = await evalSuite(suite, { output: report, traces: dir }, quiet);
    const traces = readdirSync(dir).map((name) => join(dir, name));
    expect(traces).toHaveLength(2);
    const { page, errors } = await studio.open('#eval');
    await page.setInputFiles('#eval-file', [report, ...traces]);
    await page.waitForSelector('#eval-cases tr.case');
    expect(await page.textContent('#eval-summary')).toContain('1/2 runs passed (50%)');
    expect(await page.locator('#eval-cases tr.case.pass').getAttribute('data-case')).toBe('france');
    const failed = page.locator('#eval-cases tr.case.fail');
    expect(await failed.getAttribute('data-case')).toBe('france-again');
    expect(await failed.locator('.score').textContent()).toBe('0/1 (0%)');
    expect(await failed.locator('ul.checks').textContent()).toContain('contains "Paris"');
    const runId = (written.cases[1].runs[0] as { runId?: string }).runId as string;
    expect(runId).toBeTruthy();
    await failed.locator(`.eval-run[data-run-id="${runId}"]`).click();
    await page.waitForSelector('#eval-trace #tree .node.final');
    expect(await page.textContent('#eval-trace #tree .node.final')).toContain('Lyon');
    await page.screenshot({ path: join(studio.docs, 'studio-eval.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
