import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/index.js';
import { loadConfig } from '../../../src/server/index.js';
import { tempDir } from '../server-fixtures.js';

let dir: ReturnType<typeof tempDir> | undefined;
afterEach(() => dir?.cleanup());

function configFile(yaml: string, files: Record<string, string> = {}): string {
  dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir.path, name), text);
  const file = join(dir.path, 'thinkflow.config.yaml');
  writeFileSync(file, yaml);
  return file;
}

describe('scorers per agent in a YAML config', () => {
  it('builds spec, library and module scorers with the sample rate, and the scoring settings', async () => {
    const file = configFile(
      `agents:
  helper:
    model: demo
    sampleRate: 0.25
    scorers:
      - noError
      - contains:Paris
      - { name: budget, options: { maxSteps: 3 } }
      - { name: regex, value: "^P" }
      - { module: ./scorers.mjs, export: polite }
      - { module: ./scorers.mjs }
  other:
    model: demo
scoring:
  timeoutMs: 5000
  concurrency: 1
`,
      {
        'scorers.mjs': `export const polite = { name: 'polite', score: ({ output }) => ({ score: /please/i.test(output) ? 1 : 0 }) };
export default [{ name: 'short', score: ({ output }) => ({ score: output.length < 100 ? 1 : 0 }) }];
`,
      },
    );
    const config = await loadConfig(file);
    expect(config.scoring?.timeoutMs).toBe(5000);
    expect(config.scoring?.concurrency).toBe(1);
    expect(Object.keys(config.scoring?.agents ?? {})).toEqual(['helper']);
    const helper = config.scoring?.agents.helper;
    expect(helper?.sampleRate).toBe(0.25);
    expect(helper?.scorers.map((s) => s.name)).toEqual(['noError', 'contains', 'budget', 'regex', 'polite', 'short']);
    const polite = helper?.scorers[4];
    expect(await polite?.score({ input: 'x', output: 'Please wait.' })).toEqual({ score: 1 });
  });

  it('refuses a bad entry, an out-of-range rate and a module without scorers, naming the agent', async () => {
    await expect(
      loadConfig(configFile('agents:\n  helper:\n    model: demo\n    scorers: [nonsense]\n')),
    ).rejects.toThrow(/agent "helper": scorers.0: Unknown scorer "nonsense"/);
    await expect(
      loadConfig(configFile('agents:\n  helper:\n    model: demo\n    sampleRate: 2\n    scorers: [noError]\n')),
    ).rejects.toThrow(/agents.helper.sampleRate/);
    await expect(
      loadConfig(
        configFile('agents:\n  helper:\n    model: demo\n    scorers: [{ module: ./s.mjs, export: nope }]\n', {
          's.mjs': 'export const other = 1;\n',
        }),
      ),
    ).rejects.toThrow(ConfigError);
    await expect(
      loadConfig(configFile('agents:\n  helper:\n    model: demo\n    scorers: [{ name: llmJudge, options: {} }]\n')),
    ).rejects.toThrow(/llmJudge needs options.model/);
  });
});
