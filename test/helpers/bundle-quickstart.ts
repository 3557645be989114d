import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { startOpenAIServer } from '../llm/providers/openai-server.js';

const ROOT = join(import.meta.dirname, '..', '..');

// The custom-tool quickstart, talking to an OpenAI-compatible server at BASE_URL.
const APP = `import { Agent, defineTool, openaiCompatible } from 'thinkflow';
import { z } from 'zod';

const weather = defineTool({
  name: 'weather',
  description: 'Current weather for a city.',
  input: z.object({ city: z.string().describe('City name, e.g. Paris') }),
  run: async ({ city }) => ({ city, tempC: 21, sky: 'clear' }),
});
const model = openaiCompatible({ baseURL: process.env.BASE_URL ?? '', apiKey: 'sk-test', model: 'gpt-4o-mini' });
const agent = new Agent({ model, tools: [weather], instructions: 'Answer in one sentence.', maxSteps: 5 });
agent.run('What is the weather in Paris?').then((result) => console.log(result.status, result.output));
`;

/** What bundling the quickstart gave: the bundle's size, build time, warnings and what it printed. */
export interface BundleResult {
  bytes: number;
  buildMs: number;
  warnings: number;
  output: string;
}

/**
 * Bundles the custom-tool quickstart (from the built `thinkflow` package) with esbuild's defaults for
 * node, copies nothing else, and runs the bundle from an empty temp folder against a local
 * OpenAI-compatible server that asks for the tool once, then answers.
 */
export async function bundleQuickstart(): Promise<BundleResult> {
  const work = mkdtempSync(join(tmpdir(), 'thinkflow-bundle-'));
  const server = await startOpenAIServer();
  try {
    const entry = join(ROOT, 'bench', `.bundle-entry-${process.pid}.ts`);
    writeFileSync(entry, APP);
    const outfile = join(work, 'app.js');
    const started = performance.now();
    try {
      const result = await build({ entryPoints: [entry], bundle: true, platform: 'node', outfile, logLevel: 'silent' });
      const buildMs = performance.now() - started;
      server.push(
        { text: '', toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' }] },
        'It is 21 °C and clear in Paris.',
      );
      const { stdout } = await promisify(execFile)(process.execPath, [outfile], {
        cwd: work,
        env: { ...process.env, BASE_URL: server.url },
      });
      return {
        bytes: statSync(outfile).size,
        buildMs,
        warnings: result.warnings.length,
        output: stdout.trim(),
      };
    } finally {
      rmSync(entry, { force: true });
    }
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}
