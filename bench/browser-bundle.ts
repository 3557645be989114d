import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const ROOT = join(import.meta.dirname, '..');

// The same app twice: one zod tool, an OpenAI-compatible model, a run of up to five steps.
const APPS = {
  thinkflow: `import { Agent, defineTool, openaiCompatible } from 'thinkflow';
import { z } from 'zod';
const weather = defineTool({
  name: 'weather',
  description: 'Current weather for a city.',
  input: z.object({ city: z.string() }),
  run: async ({ city }) => ({ city, tempC: 21, sky: 'clear' }),
});
const model = openaiCompatible({ baseURL: '/v1', apiKey: 'sk-test', model: 'gpt-4o-mini' });
const agent = new Agent({ model, tools: [weather], maxSteps: 5 });
agent.run('What is the weather in Paris?').then((result) => console.log(result.output));
`,
  'AI SDK': `import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
const weather = tool({
  description: 'Current weather for a city.',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, tempC: 21, sky: 'clear' }),
});
const provider = createOpenAICompatible({ name: 'local', baseURL: '/v1', apiKey: 'sk-test' });
generateText({ model: provider('gpt-4o-mini'), tools: { weather }, stopWhen: stepCountIs(5), prompt: 'What is the weather in Paris?' })
  .then((result) => console.log(result.text));
`,
} as const;

/** The versions each app is built with, as installed (package.json pins them exactly: ai 6.0.325 as in issue 44). */
export function bundledVersions(): Record<string, string> {
  const version = (name: string) =>
    (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  return Object.fromEntries(['ai', '@ai-sdk/openai-compatible', 'zod', 'esbuild'].map((name) => [name, version(name)]));
}

/** One app's browser bundle: minified and gzipped bytes, and what esbuild warned about. */
export interface BrowserBundle {
  name: keyof typeof APPS;
  bytes: number;
  gzipBytes: number;
  warnings: number;
  /** Minified bytes by package or source folder (`node_modules/zod`, `src/protocols/calls`), largest first. */
  parts: [string, number][];
}

/** Groups a metafile's inputs by package (`node_modules/x`) or by the source folder two levels deep. */
function partsOf(inputs: Record<string, { bytesInOutput: number }>): [string, number][] {
  const parts = new Map<string, number>();
  for (const [file, { bytesInOutput }] of Object.entries(inputs)) {
    const path = file.replace(/^.*?node_modules\//, 'node_modules/');
    const key = path.startsWith('node_modules/')
      ? path
          .split('/')
          .slice(0, path.startsWith('node_modules/@') ? 3 : 2)
          .join('/')
      : path
          .replace(/^.*?(dist|src)\//, '')
          .split('/')
          .slice(0, 2)
          .join('/');
    parts.set(key, (parts.get(key) ?? 0) + bytesInOutput);
  }
  return [...parts].sort((a, b) => b[1] - a[1]);
}

/**
 * Bundles each app as a browser page would (`esbuild --bundle --minify --platform=browser --format=esm`,
 * zod included, thinkflow from its built package) and measures both in the same run.
 */
export async function browserBundles(): Promise<BrowserBundle[]> {
  const work = mkdtempSync(join(tmpdir(), 'thinkflow-browser-bundle-'));
  const out: BrowserBundle[] = [];
  try {
    for (const [name, code] of Object.entries(APPS) as [keyof typeof APPS, string][]) {
      const entry = join(ROOT, 'bench', `.browser-entry-${process.pid}.ts`);
      writeFileSync(entry, code);
      try {
        const result = await build({
          entryPoints: [entry],
          bundle: true,
          minify: true,
          platform: 'browser',
          format: 'esm',
          write: false,
          metafile: true,
          outdir: work,
          logLevel: 'silent',
        });
        const bytes = result.outputFiles[0].contents;
        const [output] = Object.values(result.metafile.outputs);
        out.push({
          name,
          bytes: bytes.length,
          gzipBytes: gzipSync(bytes).length,
          warnings: result.warnings.length,
          parts: partsOf(output.inputs),
        });
      } finally {
        rmSync(entry, { force: true });
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return out;
}
