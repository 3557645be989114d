import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, type AgentEvent, scriptedModel } from '../../../src/index.js';

let root: string;
const LONG = `Writes haiku. ${'Each poem has three lines of five, seven and five syllables. '.repeat(18)}`.slice(
  0,
  1100,
);

/** A folder of three skills: one good, one with a 1,100-character description, one with no frontmatter nor prose. */
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'thinkflow-skill-warnings-'));
  const skill = async (name: string, text: string) => {
    await mkdir(path.join(root, name));
    await writeFile(path.join(root, name, 'SKILL.md'), text);
  };
  await skill(
    'release-notes',
    '---\nname: release-notes\ndescription: Drafts release notes.\n---\nGroup the changes.\n',
  );
  await skill('haiku', `---\nname: haiku\ndescription: ${LONG}\n---\nCount syllables.\n`);
  await skill('no-frontmatter', '# Just a title, nothing to describe the skill\n');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('skills that break a rule of the specification', () => {
  it('never fail the run: the others are listed, and each loader warning is a warning event on every run', async () => {
    const model = scriptedModel(['Final Answer: one', 'Final Answer: two']);
    const agent = new Agent({ model, protocol: 'react', skills: [root] });
    for (const answer of ['one', 'two']) {
      const events: AgentEvent[] = [];
      const result = await agent.run('Write release notes.', { onEvent: (e) => events.push(e) });
      expect(result.status).toBe('done');
      expect(result.output).toBe(answer);
      const warnings = events.filter((e) => e.type === 'warning' && e.code === 'skill');
      expect(warnings.map((w) => (w as { message: string }).message)).toEqual([
        expect.stringMatching(/haiku[/\\]SKILL\.md: "description" must be at most 1024 characters \(got 1100\)/),
        expect.stringMatching(/no-frontmatter[/\\]SKILL\.md: it must start with YAML frontmatter.*skipped/),
      ]);
      // After run_start, before the first step.
      const types = events.map((e) => e.type);
      expect(types.indexOf('warning')).toBeGreaterThan(types.indexOf('run_start'));
      expect(types.indexOf('warning')).toBeLessThan(types.indexOf('step_start'));
    }
    const system = String(model.calls[0].messages[0].content);
    expect(system).toContain('- release-notes: Drafts release notes.');
    expect(system).toContain('- haiku: Writes haiku.');
    expect(system).not.toContain('no-frontmatter');
  });

  it('a missing skills folder stays a clear error (a ConfigError, thrown as other person-fixable errors are)', async () => {
    const agent = new Agent({ model: scriptedModel(['Final Answer: x']), skills: [path.join(root, 'absent')] });
    await expect(agent.run('x')).rejects.toThrow(/skills folder .*absent does not exist/);
  });
});
