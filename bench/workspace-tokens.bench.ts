/**
 * Tokens and model calls for one data task, done with the workspace tools and with the rooted file tools
 * (`fileTools`), issue 46's third figure. The task: a 600-row sales CSV (Chinese regions and products), totals
 * per region, the best-selling product, and a `report.md` in Chinese.
 *
 * The model is scripted, so the plan is ours: each tool set gets the plan a capable model would follow with it.
 * With a shell the model asks for the figures (`awk`, `sort`) and only the figures come back; with file tools
 * it must read the whole CSV into its context, page by page when the file is over the read limit, and the
 * pages stay in every later request. What is measured is real: every request the agent sent is counted with
 * thinkflow's token counter (messages and tool declarations), and the answers are checked against the data.
 *
 *   npx tsx bench/workspace-tokens.bench.ts
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileTools } from '../src/entries/node-tools.js';
import { Agent } from '../src/index.js';
import { countTokens } from '../src/llm/count-tokens.js';
import { type ScriptedModel, scriptedModel } from '../src/llm/scripted-model.js';
import { virtualWorkspace } from '../src/workspace/index.js';

const ROWS = 600;
const REGIONS = ['华东', '华南', '华北', '西南', '东北'];
const PRODUCTS = ['绿茶', '乌龙茶', '普洱', '红茶', '白茶', '花茶'];
const READ_LIMIT = 8 * 1024;

function salesCsv(): string {
  const lines = ['日期,地区,产品,数量,单价'];
  for (let i = 0; i < ROWS; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    lines.push(
      `2026-11-${day},${REGIONS[(i * 7) % 5]},${PRODUCTS[(i * 11) % 6]},${1 + ((i * 13) % 9)},${20 + ((i * 17) % 30)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function figures(csv: string): { byRegion: Map<string, number>; top: string } {
  const byRegion = new Map<string, number>();
  const byProduct = new Map<string, number>();
  for (const line of csv.trim().split('\n').slice(1)) {
    const [, region, product, qty, price] = line.split(',');
    byRegion.set(region, (byRegion.get(region) ?? 0) + Number(qty) * Number(price));
    byProduct.set(product, (byProduct.get(product) ?? 0) + Number(qty));
  }
  const top = [...byProduct].sort((a, b) => b[1] - a[1])[0][0];
  return { byRegion, top };
}

function report(csv: string): string {
  const { byRegion, top } = figures(csv);
  const rows = [...byRegion].map(([region, total]) => `| ${region} | ${total} |`).join('\n');
  return `# 十一月销售报告\n\n| 地区 | 销售额 |\n| --- | --- |\n${rows}\n\n销量最高的产品：${top}。\n`;
}

const call = (id: string, name: string, args: unknown) => ({
  text: '',
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});

/** Tokens of every request the model received: its messages and its tool declarations. */
function requestTokens(model: ScriptedModel): number[] {
  return model.calls.map((request) =>
    countTokens(JSON.stringify(request.messages) + JSON.stringify(request.tools ?? [])),
  );
}

const QUESTION = '统计 sales.csv 中每个地区的销售额（数量×单价）和销量最高的产品，并把中文报告写入 report.md。';

async function withWorkspace(csv: string) {
  const ws = await virtualWorkspace({ files: { 'sales.csv': csv } });
  const text = report(csv);
  const model = scriptedModel([
    call('c1', 'ls', {}),
    call('c2', 'bash', { command: 'head -3 sales.csv && wc -l sales.csv' }),
    call('c3', 'bash', { command: "awk -F, 'NR>1 {s[$2]+=$4*$5} END {for (r in s) print r, s[r]}' sales.csv" }),
    call('c4', 'bash', {
      command: "awk -F, 'NR>1 {q[$3]+=$4} END {for (p in q) print q[p], p}' sales.csv | sort -rn | head -1",
    }),
    call('c5', 'write_file', { path: 'report.md', content: text }),
    call('c6', 'bash', { command: 'cat report.md' }),
    '报告已写入 report.md。',
  ]);
  const agent = new Agent({ model, workspace: ws, maxSteps: 10 });
  const result = await agent.run(QUESTION);
  const written = await ws.readFile('report.md');
  await ws.dispose();
  // The shell really computed the figures: every region's total and the top product came back to the model.
  const { byRegion, top } = figures(csv);
  const seen = JSON.stringify(model.calls.at(-1)?.messages);
  const computed = [...byRegion].every(([region, total]) => seen.includes(`${region} ${total}`)) && seen.includes(top);
  return { model, result, ok: written === text && computed };
}

async function withFileTools(csv: string) {
  const root = mkdtempSync(join(tmpdir(), 'thinkflow-tokens-'));
  writeFileSync(join(root, 'sales.csv'), csv);
  const text = report(csv);
  const size = Buffer.byteLength(csv);
  const pages: ReturnType<typeof call>[] = [];
  for (let offset = 0, k = 0; offset < size; offset += READ_LIMIT, k++) {
    pages.push(call(`p${k}`, 'read_file', { path: 'sales.csv', offset, length: READ_LIMIT }));
  }
  const model = scriptedModel([
    call('c1', 'list_files', {}),
    call('c2', 'read_file', { path: 'sales.csv' }), // refused: over the read limit, with the size
    ...pages,
    call('c5', 'write_file', { path: 'report.md', content: text }),
    call('c6', 'read_file', { path: 'report.md' }),
    '报告已写入 report.md。',
  ]);
  const agent = new Agent({
    model,
    tools: fileTools({ root, allowWrite: true, maxReadBytes: READ_LIMIT }),
    approve: () => true,
    maxSteps: 10 + pages.length,
  });
  const result = await agent.run(QUESTION);
  const ok = readFileSync(join(root, 'report.md'), 'utf8') === text;
  rmSync(root, { recursive: true, force: true });
  return { model, result, ok };
}

const csv = salesCsv();
console.log(`task: ${ROWS} rows, ${Buffer.byteLength(csv)} bytes of CSV, read limit ${READ_LIMIT} bytes`);
for (const [label, run] of [
  ['workspace tools', withWorkspace],
  ['file tools     ', withFileTools],
] as const) {
  const { model, result, ok } = await run(csv);
  const tokens = requestTokens(model);
  const total = tokens.reduce((a, b) => a + b, 0);
  console.log(
    `${label}  model calls ${model.calls.length}  prompt tokens ${total} (largest request ${Math.max(...tokens)})  ` +
      `status ${result.status}  report ${ok ? 'right' : 'WRONG'}`,
  );
}
