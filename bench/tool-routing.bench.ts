/**
 * Tool routing quality: the share of questions whose right tool is in the routed top 8 (and first), over
 * 45 tools (and 8 decoys) described in English or in Chinese and questions asked in either language
 * (test/fixtures/routing/tool-sets.ts). The agent routes by default above 20 tools, so this is what a
 * model is offered.
 *
 * Run: node --import tsx bench/tool-routing.bench.ts
 */
import { createToolRouter } from '../src/agent/tool-router.js';
import type { ToolSpec } from '../src/core/index.js';
import { HELD_OUT, TOOLS } from '../test/fixtures/routing/tool-sets.js';

const parameters = { type: 'object', properties: { input: { type: 'string' } } };
// Eight tools first that no question is about: when fewer than 8 tools match, the router fills the
// rest in registry order, and these take those slots, so only tools that matched count as found.
const DECOYS: ToolSpec[] = Array.from({ length: 8 }, (_, i) => ({
  name: `decoy_${i}`,
  description: `Zorblat quxx ${i}.`,
  parameters,
}));
const specs = (lang: 'en' | 'zh'): ToolSpec[] => [
  ...DECOYS,
  ...TOOLS.map((t) => ({ name: t.name, description: t[lang], parameters }) as ToolSpec),
];

for (const tools of ['en', 'zh'] as const) {
  for (const asked of ['en', 'zh'] as const) {
    const router = createToolRouter({ topK: 8 });
    const list = specs(tools);
    let top8 = 0;
    let top1 = 0;
    let n = 0;
    const misses: string[] = [];
    for (const tool of TOOLS) {
      for (const question of asked === 'en' ? tool.qEn : tool.qZh) {
        n++;
        const names = (await router(question, list)).map((t) => t.name);
        if (names.includes(tool.name)) top8++;
        else misses.push(`${question} → ${names.slice(0, 3).join(', ') || '(none)'} (want ${tool.name})`);
        if (names[0] === tool.name) top1++;
      }
    }
    console.log(
      `${tools} descriptions, ${asked} questions: right tool in top 8 ${((100 * top8) / n).toFixed(1)}%, first ${((100 * top1) / n).toFixed(1)}% (${n} questions)`,
    );
    if (process.argv.includes('--misses')) for (const m of misses) console.log(`  miss: ${m}`);
  }
}

for (const tools of ['en', 'zh'] as const) {
  for (const asked of ['en', 'zh'] as const) {
    const router = createToolRouter({ topK: 8 });
    const list = specs(tools);
    let top8 = 0;
    const misses: string[] = [];
    for (const q of HELD_OUT) {
      const names = (await router(q[asked], list)).map((t) => t.name);
      if (names.includes(q.name)) top8++;
      else misses.push(`${q[asked]} → ${names.slice(0, 3).join(', ')} (want ${q.name})`);
    }
    console.log(
      `held out: ${tools} descriptions, ${asked} questions: right tool in top 8 ${((100 * top8) / HELD_OUT.length).toFixed(1)}% (${HELD_OUT.length} questions)`,
    );
    if (process.argv.includes('--misses')) for (const m of misses) console.log(`  miss: ${m}`);
  }
}
