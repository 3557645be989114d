import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSkills, readSkillMarkdown, type SkillWarning } from '../../src/entries/skills.js';

const temps: string[] = [];
afterAll(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

/** A folder of skills, each given as its folder's name and its SKILL.md text. */
async function skillsFolder(skills: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'skills-wild-'));
  temps.push(root);
  for (const [rel, text] of Object.entries(skills)) {
    await mkdir(path.join(root, rel), { recursive: true });
    await writeFile(path.join(root, rel, 'SKILL.md'), text);
  }
  return root;
}

const md = (frontmatter: string, body = '# Body\nDo it.') => `---\n${frontmatter}\n---\n${body}\n`;
const where = (folder: string) => ({ file: `${folder}/SKILL.md`, folder });

describe('reading a SKILL.md leniently, as the reference clients do', () => {
  it('keeps a description over 1,024 characters (a YAML block), with a warning', () => {
    const long = Array.from({ length: 12 }, (_, i) => `  Line ${i}: ${'x'.repeat(85)}`).join('\n');
    const { skill, problems } = readSkillMarkdown(md(`name: api\ndescription: |-\n${long}`), where('api'));
    expect(skill?.description.length).toBeGreaterThan(1024);
    expect(problems).toEqual([
      { severity: 'warning', message: expect.stringContaining('"description" must be at most 1024 characters') },
    ]);
  });

  it('reads the slips hand-written skills make, each a warning', () => {
    const text = md(
      [
        'name: Data_Tool',
        'description: Use when: the user asks for a chart',
        'version: 1.2',
        'author: someone',
        'allowed-tools:',
        '  - Read',
        '  - Bash',
        'metadata:',
        '  stars: 5',
        '  beta: true',
      ].join('\n'),
    );
    const { skill, problems } = readSkillMarkdown(text, where('data-tool'));
    expect(skill).toMatchObject({
      name: 'Data_Tool',
      description: 'Use when: the user asks for a chart',
      allowedTools: ['Read', 'Bash'],
      metadata: { stars: '5', beta: 'true' },
    });
    const messages = problems.map((p) => `${p.severity}: ${p.message}`).join('\n');
    expect(problems.every((p) => p.severity === 'warning')).toBe(true);
    expect(messages).toContain('not valid YAML');
    expect(messages).toContain('unknown frontmatter fields "version", "author"');
    expect(messages).toContain('"name" must be 1-64 lowercase letters');
    expect(messages).toContain(`"name" must match its folder's name "data-tool"`);
    expect(messages).toContain('"allowed-tools" should be a space-separated string');
    expect(messages).toContain('"metadata" must map names to strings');
  });

  it('takes the folder name when "name" is missing, and reads CRLF and a BOM', () => {
    const { skill, problems } = readSkillMarkdown('\uFEFF---\r\ndescription: 写周报。\r\n---\r\n正文', where('周报'));
    expect(skill).toMatchObject({ name: '周报', description: '写周报。', body: '正文' });
    expect(problems.map((p) => p.message)).toEqual([`"name" is required; the folder's name "周报" is used`]);
  });

  it('reads a skill without frontmatter or description as Claude Code does: the folder names it, its first paragraph describes it', () => {
    const bare = readSkillMarkdown(
      '# 三层记忆系统\n\n三层记忆架构 - 解决 AI 的记忆丢失问题。\n\n## 概述\n正文',
      where('triple-layer-memory'),
    );
    expect(bare.skill).toMatchObject({
      name: 'triple-layer-memory',
      description: '三层记忆架构 - 解决 AI 的记忆丢失问题。',
      body: expect.stringMatching(/^# 三层记忆系统/),
    });
    expect(bare.problems.map((p) => p.message)).toEqual([
      'it must start with YAML frontmatter between two "---" lines; read without it',
      `"name" is required; the folder's name "triple-layer-memory" is used`,
    ]);
    const empty = readSkillMarkdown(
      md('name: x\ndescription: ""', '# X\n\n```sh\nx run\n```\nRuns x on a file.'),
      where('x'),
    );
    expect(empty.skill?.description).toBe('Runs x on a file.');
    expect(empty.problems.map((p) => p.message)).toContain(
      '"description" is required; the first paragraph of the body is used',
    );
  });

  it('reads frontmatter that no YAML reading accepts line by line (an open quote, a description starting with **)', () => {
    const open = md(
      'name: claw-diary\ndescription: "个人AI代理的日记：\n- 使用 `/diary` 查看总结；\n- 使用 `/diary:stats` 查看数据。"\nversion: "1.1.2"',
    );
    const diary = readSkillMarkdown(open, where('claw-diary'));
    expect(diary.skill?.description).toBe(
      '个人AI代理的日记：\n- 使用 `/diary` 查看总结；\n- 使用 `/diary:stats` 查看数据。',
    );
    expect(diary.problems[0].message).toMatch(/^its frontmatter is not valid YAML \(.*\); read line by line$/);
    const starred = md(
      'name: auto-memory\ndescription: **不可摧毁的代理内存**——数据被永久存储。\nmetadata:\n  openclaw:\n    emoji: "x"',
    );
    const memory = readSkillMarkdown(starred, where('auto-memory'));
    expect(memory.skill).toMatchObject({
      name: 'auto-memory',
      description: '**不可摧毁的代理内存**——数据被永久存储。',
    });
    expect(memory.skill?.metadata).toBeUndefined();
  });

  it('cannot use a skill with no frontmatter, no description or unreadable YAML', () => {
    for (const text of ['# Just a title', md('name: x', '# Only a title'), '---\n  name: [x\n---\nDo it.\n']) {
      const { skill, problems } = readSkillMarkdown(text, where('x'));
      expect(skill).toBeUndefined();
      expect(problems.some((p) => p.severity === 'error')).toBe(true);
    }
  });
});

describe('loadSkills on a folder from the wild', () => {
  it('loads the good skills and the lenient ones, skips the unusable one, and warns for each', async () => {
    const root = await skillsFolder({
      'skills/good': md('name: good\ndescription: A good skill.'),
      'skills/long': md(`name: long\ndescription: ${'d'.repeat(1100)}`),
      'skills/broken': '# no frontmatter at all',
      'skills/dup-a': md('name: twin\ndescription: First twin.'),
      'skills/dup-b': md('name: twin\ndescription: Second twin.'),
      template: md('name: template-skill\ndescription: A template.'),
      '.hidden/secret': md('name: secret\ndescription: Never found.'),
    });
    const warnings: SkillWarning[] = [];
    const skills = await loadSkills(root, { onWarning: (w) => warnings.push(w) });
    expect(skills.map((s) => s.name).sort()).toEqual(['good', 'long', 'template-skill', 'twin']);
    expect(skills.find((s) => s.name === 'twin')?.description).toBe('First twin.');
    const said = warnings.map(
      (w) => `${path.relative(root, w.file)} ${w.skipped ? 'skipped' : 'loaded'}: ${w.message}`,
    );
    expect(said).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^skills\/long\/SKILL.md loaded: "description" must be at most 1024/),
        expect.stringMatching(/^skills\/broken\/SKILL.md skipped: it must start with YAML frontmatter/),
        expect.stringMatching(/^skills\/dup-b\/SKILL.md skipped: Two skills are named "twin"/),
        expect.stringMatching(/^template\/SKILL.md loaded: "name" must match its folder's name/),
      ]),
    );
    // And dup-a, dup-b: each name differs from its folder's.
    expect(warnings).toHaveLength(6);
  });

  it('a missing folder, or one with no usable skill, stays a clear error', async () => {
    await expect(loadSkills('/no/such/skills')).rejects.toThrow('The skills folder /no/such/skills does not exist.');
    const empty = await skillsFolder({ 'only/broken': md('name: broken', '# Only a title') });
    await expect(loadSkills(empty)).rejects.toThrow(/holds no usable skill\. Skipped: .*"description" is required/);
    const nothing = await skillsFolder({});
    await expect(loadSkills(nothing)).rejects.toThrow('No folder below it holds a SKILL.md (looked 5 levels down');
  });

  it("finds a project's skills in the hidden folders agents keep them in, and a plugin marketplace's four levels down", async () => {
    const root = await skillsFolder({
      '.agents/skills/cangjie-coding': md('name: cangjie-coding\ndescription: Writes Cangjie code.'),
      '.claude/skills/review': md('name: review\ndescription: Reviews a change.'),
      'plugins/asciinema/skills/record': md('name: record\ndescription: Records a terminal session.'),
      // Not looked into: any other hidden folder, and anything deeper than five levels.
      '.git/hooks/skill': md('name: skill\ndescription: Not a skill.'),
      'a/b/c/d/e/too-deep': md('name: too-deep\ndescription: Too deep.'),
      'a/b/c/d/deep-enough': md('name: deep-enough\ndescription: Five levels down.'),
    });
    const names = (await loadSkills(root)).map((s) => s.name);
    expect(names.sort()).toEqual(['cangjie-coding', 'deep-enough', 'record', 'review']);
  });

  it("tells apart a marketplace's plugins' skills of one name as <plugin>:<name>, each with a warning", async () => {
    const root = await skillsFolder({
      'plugins/asciinema/skills/setup': md('name: setup\ndescription: Sets up asciinema.'),
      'plugins/floating-clock/skills/setup': md('name: setup\ndescription: Sets up the clock.'),
      'skills/setup': md('name: setup\ndescription: Sets up the marketplace.'),
    });
    const warnings: SkillWarning[] = [];
    const skills = await loadSkills(root, { onWarning: (w) => warnings.push(w) });
    expect(skills.map((s) => [s.name, s.description])).toEqual([
      ['asciinema:setup', 'Sets up asciinema.'],
      ['floating-clock:setup', 'Sets up the clock.'],
      ['setup', 'Sets up the marketplace.'],
    ]);
    expect(warnings.map((w) => w.message)).toEqual([
      'Other skills are named "setup" too; this one is loaded as "asciinema:setup".',
      'Other skills are named "setup" too; this one is loaded as "floating-clock:setup".',
    ]);
    await expect(loadSkills(root, { strict: true })).rejects.toThrow('Two skills are named "setup"');
    // A project's copy in .claude/skills and in skills/ names no plugin: the first is kept, as before.
    const copies = await skillsFolder({
      '.claude/skills/review': md('name: review\ndescription: The hidden copy.'),
      'skills/review': md('name: review\ndescription: The other copy.'),
    });
    const kept = await loadSkills(copies, { onWarning: () => {} });
    expect(kept.map((s) => [s.name, s.description])).toEqual([['review', 'The hidden copy.']]);
  });

  it('strict mode refuses the first broken rule, as a validator would', async () => {
    const root = await skillsFolder({ long: md(`name: long\ndescription: ${'d'.repeat(1100)}`) });
    await expect(loadSkills(root, { strict: true })).rejects.toThrow('"description" must be at most 1024 characters');
  });
});
