import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareExperiments, contains, memoryExperimentStore, runExperiment } from '../../src/eval/index.js';
import { hasChromium, STUDIO_AUTH, type Studio, startStudio } from './studio-browser.fixture.js';

describe.skipIf(!hasChromium)('studio: scores, datasets and comparisons', () => {
  let studio: Studio;

  beforeAll(async () => {
    studio = await startStudio();
  }, 180_000);

  afterAll(async () => {
    await studio?.close();
  });

  it("shows a run's online scores and adds the run to a new dataset", async () => {
    const started = await fetch(`${studio.server.url}/v1/agents/helper/runs?wait=true`, {
      method: 'POST',
      headers: { ...STUDIO_AUTH, 'content-type': 'application/json' },
      body: '{"input":"What is the meaning of life?"}',
    });
    const { id } = (await started.json()) as { id: string };
    // Scoring runs after the run answered: wait for its scores before opening the page.
    await expect
      .poll(async () => {
        const response = await fetch(`${studio.server.url}/v1/runs/${id}/scores`, { headers: STUDIO_AUTH });
        return ((await response.json()) as { scores: unknown[] }).scores.length;
      })
      .toBe(2);
    const { page, errors } = await studio.open(`#run/${id}`);
    await page.waitForSelector('#run-scores tr.score[data-scorer=contains]');
    expect(await page.locator('#run-scores tr.score.pass').count()).toBe(2);
    expect(await page.textContent('#run-scores tr[data-scorer=contains] td.score')).toBe('1.00');
    await page.fill('#add-to-dataset input[name=dataset-name]', 'from the studio');
    await page.click('#add-to-dataset button[type=submit]');
    await page.waitForSelector('#dataset-note:has-text("Added to from the studio")');
    expect(await page.textContent('#dataset-note')).toBe('Added to from the studio: version 1, 1 rows.');
    const list = await fetch(`${studio.server.url}/v1/datasets`, { headers: STUDIO_AUTH });
    const [dataset] = ((await list.json()) as { data: { id: string; name: string }[] }).data;
    expect(dataset.name).toBe('from the studio');
    const rows = await fetch(`${studio.server.url}/v1/datasets/${dataset.id}`, { headers: STUDIO_AUTH });
    expect(((await rows.json()) as { items: unknown[] }).items).toEqual([
      expect.objectContaining({ input: 'What is the meaning of life?', expected: 'The answer is 42.' }),
    ]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('compares two experiments side by side in the Eval tab: deltas with intervals, fixed and broken cases', async () => {
    const data = ['a', 'b', 'c', 'd'].map((id) => ({ id, input: id, expected: 'yes' }));
    const store = memoryExperimentStore();
    const run = (name: string, wrong: string[]) =>
      runExperiment({
        name,
        data,
        store,
        task: async (input) => (wrong.includes(String(input)) ? 'no' : 'yes'),
        scorers: [contains()],
      });
    const a = await run('baseline', ['d']);
    const b = await run('change', ['a', 'b']);
    const comparison = await compareExperiments(
      { meta: a.meta, trials: store.trials(a.meta.id) },
      { meta: b.meta, trials: store.trials(b.meta.id) },
      { maxBroken: 1 },
    );
    const file = join(studio.dir, 'compare.json');
    writeFileSync(file, JSON.stringify(comparison));
    const { page, errors } = await studio.open('#eval');
    await page.setInputFiles('#eval-file', file);
    await page.waitForSelector('#compare-scorers tr[data-scorer=contains]');
    expect(await page.textContent('#compare-verdict')).toContain('regression');
    expect(await page.textContent('ul.reasons')).toContain('2 cases broke');
    expect(await page.locator('#compare-broken li').allTextContents()).toEqual(['a', 'b']);
    expect(await page.locator('#compare-fixed li').allTextContents()).toEqual(['d']);
    const delta = await page.textContent('#compare-scorers tr[data-scorer=contains] td.delta');
    expect(delta).toMatch(/^-0\.250\[/);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
