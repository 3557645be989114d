import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const run = promisify(execFile);

describe('README examples', { timeout: 120_000 }, () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

  for (const [file, expected] of [
    ['examples/quickstart.ts', /done The result is 165\. 165/],
    ['examples/custom-tool.ts', /It is 21 °C and clear in Paris\./],
  ] as const) {
    it(`${file} is in the README verbatim and prints what it claims`, async () => {
      const source = readFileSync(join(ROOT, file), 'utf8');
      expect(readme).toContain(source);
      const env = { ...process.env, OPENAI_API_KEY: '' };
      const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, env });
      expect(stdout).toMatch(expected);
    });
  }
});

describe('the seeds’ examples', { timeout: 120_000 }, () => {
  for (const [file, expected] of [
    [
      'examples/holiday-movie.ts',
      /→ get_holiday[\s\S]*→ get_movie_recommendation[\s\S]*done .*国庆节.*《我和我的祖国》/,
    ],
    ['examples/earth-circumference.ts', /行动：search[\s\S]*行动：calculator[\s\S]*done .*40075000 \/ 1000 = 40075/],
  ] as const) {
    it(`${file} runs the chain and prints what it claims`, async () => {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { cwd: ROOT });
      expect(stdout).toMatch(expected);
    });
  }
});
