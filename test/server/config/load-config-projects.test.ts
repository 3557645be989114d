import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// A config loads the same in an ESM project ("type": "module") and a CommonJS one (what `npm init -y`
// writes), in every format: each case is a real temp project with thinkflow linked into node_modules
// (as `npm link` does), loading the config through the built package as a user's process would.
const ROOT = join(import.meta.dirname, '..', '..', '..');
const run = promisify(execFile);
const made: string[] = [];

const ESM_CODE = `import { Agent, calculatorTool, resolveModel } from 'thinkflow';
import { defineConfig } from 'thinkflow/server';
export default defineConfig({
  agents: { helper: () => new Agent({ model: resolveModel('demo'), tools: [calculatorTool] }) },
});
`;
const CJS_CODE = `const { Agent, calculatorTool, resolveModel } = require('thinkflow');
const { defineConfig } = require('thinkflow/server');
module.exports = defineConfig({
  agents: { helper: () => new Agent({ model: resolveModel('demo'), tools: [calculatorTool] }) },
});
`;
// Type annotations prove the file goes through a TypeScript transform.
const TS_CODE = `import { Agent, calculatorTool, resolveModel, type Model } from 'thinkflow';
import { defineConfig, type ThinkflowConfig } from 'thinkflow/server';
const model: Model = resolveModel('demo');
const config: ThinkflowConfig = defineConfig({
  agents: { helper: () => new Agent({ model, tools: [calculatorTool] }) },
});
export default config;
`;
const DATA = { agents: { helper: { model: 'demo', tools: ['calculator'] } } };

// One process per project loads every config in turn, as the CLI's loadConfig would.
const HARNESS = `import { Agent } from 'thinkflow';
import { loadConfig } from 'thinkflow/server';
const reports = {};
for (const file of process.argv.slice(2)) {
  try {
    const config = await loadConfig(file);
    const entry = config.agents.helper;
    const agent = typeof entry === 'function' ? await entry() : entry;
    const result = await agent.run('What is 17 * 23?');
    reports[file] = { sameAgentClass: agent instanceof Agent, status: result.status, output: result.output };
  } catch (error) {
    reports[file] = { error: String(error) };
  }
}
console.log(JSON.stringify(reports));
`;

function project(type: 'module' | 'commonjs'): string {
  const dir = mkdtempSync(join(tmpdir(), `thinkflow-${type}-`));
  made.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', type }));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'thinkflow'), 'dir');
  writeFileSync(join(dir, 'harness.mjs'), HARNESS);
  return dir;
}

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const CASES: { file: string; esm: string; cjs: string }[] = [
  { file: 'thinkflow.config.ts', esm: TS_CODE, cjs: TS_CODE },
  { file: 'thinkflow.config.mts', esm: TS_CODE, cjs: TS_CODE },
  { file: 'thinkflow.config.js', esm: ESM_CODE, cjs: CJS_CODE },
  { file: 'thinkflow.config.mjs', esm: ESM_CODE, cjs: ESM_CODE },
  { file: 'thinkflow.config.cjs', esm: CJS_CODE, cjs: CJS_CODE },
  { file: 'thinkflow.config.json', esm: JSON.stringify(DATA), cjs: JSON.stringify(DATA) },
  {
    file: 'thinkflow.config.yaml',
    esm: 'agents:\n  helper:\n    model: demo\n    tools: [calculator]\n',
    cjs: 'agents:\n  helper:\n    model: demo\n    tools: [calculator]\n',
  },
];

describe('loadConfig in real ESM and CommonJS projects', { timeout: 120_000 }, () => {
  for (const type of ['module', 'commonjs'] as const) {
    it(`loads .ts, .mts, .js, .mjs, .cjs, .json and .yaml configs in a "${type}" project and runs their agents`, async () => {
      const dir = project(type);
      for (const { file, esm, cjs } of CASES) writeFileSync(join(dir, file), type === 'module' ? esm : cjs);
      const files = CASES.map((c) => c.file);
      const { stdout } = await run(process.execPath, ['harness.mjs', ...files], { cwd: dir });
      const reports = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
      const ok = { sameAgentClass: true, status: 'done', output: expect.stringContaining('391') };
      expect(reports).toEqual(Object.fromEntries(files.map((file) => [file, ok])));
    });
  }

  it('require("thinkflow") works from a CommonJS script', async () => {
    const dir = project('commonjs');
    writeFileSync(
      join(dir, 'main.js'),
      "const { Agent, scriptedModel } = require('thinkflow');\nnew Agent({ model: scriptedModel(['Final Answer: ok']) }).run('hi').then((r) => console.log(r.output));\n",
    );
    const { stdout } = await run(process.execPath, ['main.js'], { cwd: dir });
    expect(stdout.trim()).toBe('ok');
  });
});
