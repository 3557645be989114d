/**
 * Tool routing at scale: recall and time per run.
 *
 * - Seal-Tools (4,076 tools, Apache-2.0; test/fixtures/routing/seal-tools.json.gz): the share of questions whose
 *   gold tools are ALL among those sent (topK 8), in-domain and out-of-domain, and the share of gold tools sent.
 * - A 29-domain Chinese intent set (SMP2019-ECDT utterances; test/fixtures/routing/smp2019-intents.json): the
 *   right tool sent, with the 29 tools alone and hidden among the 4,076.
 * - The 45-tool bilingual set (test/fixtures/routing/tool-sets.ts), as before.
 * - Time: choosing tools p50 per question at 100 and 4,076 tools, the ratio of an agent run's time at 4,076
 *   tools to one at 100 (flat is 1×), the one-off index build, and the update after one tool is registered.
 *
 * Run: node --import tsx bench/tool-routing.bench.ts [--misses]
 */

import { createToolRouter } from '../src/entries/tools.js';
import { Agent, jsonSchemaTool, scriptedModel, type ToolSpec } from '../src/index.js';
import { type GoldQuestion, loadChineseIntents, loadSealTools } from '../test/fixtures/routing/public-sets.js';
import { HELD_OUT, TOOLS } from '../test/fixtures/routing/tool-sets.js';

const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(1)}%`;
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function recall(label: string, tools: readonly ToolSpec[], questions: GoldQuestion[]) {
  const router = createToolRouter({ topK: 8 });
  await router.route('warm up', tools);
  let all = 0;
  let goldSent = 0;
  let goldTotal = 0;
  let sent = 0;
  const times: number[] = [];
  const misses: string[] = [];
  for (const q of questions) {
    const t0 = performance.now();
    const names = (await router.route(q.query, tools)).map((t) => t.name);
    times.push(performance.now() - t0);
    sent += names.length;
    const hit = q.gold.filter((g) => names.includes(g)).length;
    goldSent += hit;
    goldTotal += q.gold.length;
    if (hit === q.gold.length) all++;
    else misses.push(`${q.query.slice(0, 100)} → ${names.slice(0, 3).join(', ')} (want ${q.gold.join(', ')})`);
  }
  console.log(
    `${label}: all gold sent ${pct(all, questions.length)}, gold tools sent ${pct(goldSent, goldTotal)}, ` +
      `${(sent / questions.length).toFixed(1)} tools sent on average, p50 ${p50(times).toFixed(2)} ms (${questions.length} questions)`,
  );
  if (process.argv.includes('--misses')) for (const m of misses.slice(0, 30)) console.log(`  miss: ${m}`);
}

const seal = loadSealTools();
await recall('Seal-Tools in-domain, 4,076 tools', seal.tools, seal.inDomain);
await recall('Seal-Tools out-of-domain, 4,076 tools', seal.tools, seal.outDomain);
await recall('Seal-Tools in-domain, first 300', seal.tools, seal.inDomain.slice(0, 300));
await recall('Seal-Tools out-of-domain, first 300', seal.tools, seal.outDomain.slice(0, 300));
for (const lang of ['zh', 'en'] as const) {
  const intents = loadChineseIntents(lang);
  await recall(`Chinese intents, 29 tools described in ${lang}`, intents.tools, intents.questions);
  await recall(`Chinese intents, 29 tools (${lang}) among 4,076`, [...seal.tools, ...intents.tools], intents.questions);
}

const parameters = { type: 'object', properties: { input: { type: 'string' } } };
for (const tools of ['en', 'zh'] as const) {
  for (const asked of ['en', 'zh'] as const) {
    const list = TOOLS.map((t) => ({ name: t.name, description: t[tools], parameters }) as ToolSpec);
    const questions = [
      ...TOOLS.flatMap((t) => (asked === 'en' ? t.qEn : t.qZh).map((query) => ({ query, gold: [t.name] }))),
      ...HELD_OUT.map((q) => ({ query: q[asked], gold: [q.name] })),
    ];
    await recall(`45 tools in ${tools}, questions in ${asked}`, list, questions);
  }
}

// Time: the index is built once, then kept up to date; a run pays for a search, not a build.
{
  const router = createToolRouter();
  let t0 = performance.now();
  await router.route('build', seal.tools);
  const build = performance.now() - t0;
  const extra: ToolSpec = { name: 'brandNewTool', description: 'A tool registered later.', parameters };
  t0 = performance.now();
  await router.route('update', [...seal.tools, extra]);
  console.log(
    `index of 4,076 tools: built once in ${build.toFixed(0)} ms; one registered tool updates it in ${(performance.now() - t0).toFixed(1)} ms`,
  );
}

/** p50 ms of choosing tools (router.route) for the out-of-domain questions, over the first `n` tools. */
async function routeTime(n: number): Promise<number> {
  const tools = seal.tools.slice(0, n);
  const router = createToolRouter();
  await router.route('warm up', tools);
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const q of seal.outDomain) {
      const t0 = performance.now();
      await router.route(q.query, tools);
      times.push(performance.now() - t0);
    }
  }
  return p50(times);
}
{
  const [small, large] = [await routeTime(100), await routeTime(4076)];
  console.log(
    `choosing tools p50: ${small.toFixed(3)} ms at 100 tools, ${large.toFixed(3)} ms at 4,076 tools: ${(large / small).toFixed(2)}×`,
  );
}

/** p50 ms of an agent run (one model call answering at once) with `n` tools registered, routing on. */
async function runTime(n: number): Promise<number> {
  const tools = seal.tools.slice(0, n).map((spec) =>
    jsonSchemaTool({
      name: spec.name.replace(/[^\p{L}\p{N}_-]/gu, '_'),
      description: spec.description,
      parameters: spec.parameters,
      run: () => 'ok',
    }),
  );
  const agent = new Agent({ model: scriptedModel(() => 'Done.'), tools });
  await agent.run('warm up');
  const times: number[] = [];
  for (const q of seal.outDomain.slice(0, 100)) {
    const t0 = performance.now();
    await agent.run(q.query);
    times.push(performance.now() - t0);
  }
  return p50(times);
}
const small = await runTime(100);
const large = await runTime(4076);
console.log(
  `agent run p50: ${small.toFixed(2)} ms at 100 tools, ${large.toFixed(2)} ms at 4,076 tools: ${(large / small).toFixed(2)}× (flat is 1×)`,
);
