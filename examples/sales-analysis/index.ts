/**
 * The seeds' data-analysis scenario, end to end with no API key: read sales.csv, find the product with the
 * highest total sales, and draw a bar chart of sales per product.
 *
 * Run it:  node --import tsx examples/sales-analysis/index.ts
 *
 * The model is scripted (thinkflow's `scriptedModel`), but it does not know the answer in advance: it reads
 * the tools' observations from the conversation, as a real model would. Swap in `openaiCompatible(...)` or
 * `anthropic(...)` for `salesAnalystModel()` to run the same agent against a real provider.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chartTools } from '../../src/entries/chart-tools.js';
import { dataTools } from '../../src/entries/data-tools.js';
import {
  Agent,
  contentText,
  type ModelRequest,
  type ModelResponse,
  type RunResult,
  type ScriptedModel,
  scriptedModel,
} from '../../src/index.js';

export const QUESTION =
  'Analyse sales.csv: tell me what data it holds, find the product with the highest total sales, ' +
  'and draw a bar chart of total sales per product.';

/** A scripted analyst: describe → aggregate → chart → answer, reading each observation it gets back. */
export function salesAnalystModel(): ScriptedModel {
  return scriptedModel((request: ModelRequest, callIndex: number): ModelResponse | string => {
    const call = (name: string, args: Record<string, unknown>): ModelResponse => ({
      text: '',
      toolCalls: [{ id: `call_${callIndex}`, name, arguments: JSON.stringify(args) }],
    });
    if (callIndex === 0) return call('describe_data', { file: 'sales.csv' });
    if (callIndex === 1) {
      return call('aggregate_data', { file: 'sales.csv', group_by: 'product', aggregate: 'sum', column: 'sales' });
    }
    if (callIndex === 2) {
      return call('draw_chart', {
        type: 'bar',
        file: 'sales.csv',
        x: 'product',
        y: 'sales',
        aggregate: 'sum',
        name: 'sales-by-product',
        title: 'Total sales by product',
      });
    }
    const [, totals = '', chart = ''] = toolOutputs(request);
    // The aggregate table is sorted highest first: its first data row is the answer.
    const [product, total] = (totals.split('\n')[2] ?? '').split('|').map((cell) => cell.trim());
    return `The product with the highest total sales is ${product} (${total}). ${chart}`;
  });
}

function toolOutputs(request: ModelRequest): string[] {
  return request.messages.filter((message) => message.role === 'tool').map((message) => contentText(message.content));
}

/** Runs the scenario over the folder holding sales.csv, writing the chart into `outDir`. */
export async function runSalesAnalysis(options: { root: string; outDir: string }): Promise<RunResult> {
  const agent = new Agent({
    model: salesAnalystModel(),
    protocol: 'native',
    tools: [...dataTools({ root: options.root }), ...chartTools({ root: options.root, outDir: options.outDir })],
    maxSteps: 6,
  });
  return agent.run(QUESTION);
}

async function main(): Promise<void> {
  const root = path.dirname(fileURLToPath(import.meta.url));
  const outDir = path.join(os.tmpdir(), 'thinkflow-sales-analysis');
  const result = await runSalesAnalysis({ root, outDir });
  for (const step of result.steps) {
    for (const call of step.toolCalls) console.log(`\n> ${call.name} ${JSON.stringify(call.input)}\n${call.output}`);
  }
  console.log(`\n${result.status}: ${result.output}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
