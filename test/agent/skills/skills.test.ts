import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadSkills, parseSkillMarkdown } from '../../../src/entries/skills.js';
import { Agent, type AgentEvent, defineTool, scriptedModel } from '../../../src/index.js';
import { call } from '../helpers.js';

const FIXTURES = path.join(import.meta.dirname, '..', '..', 'fixtures', 'skills');
const VALID = path.join(FIXTURES, 'valid');
const tool = (name: string) =>
  defineTool({ name, description: `The ${name} tool.`, input: z.object({ q: z.string() }), run: () => `${name} ok` });

const temps: string[] = [];
afterAll(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

describe('loading Agent Skills folders', () => {
  it('loads a folder of three skills with their frontmatter and files, and runs none of their scripts', async () => {
    const skills = await loadSkills(VALID);
    expect(skills.map((s) => s.name)).toEqual(['pdf-forms', 'release-notes', 'weather-report']);
    const weather = skills[2];
    expect(weather).toMatchObject({
      allowedTools: ['get_weather', 'convert_units'],
      license: 'MIT',
      metadata: { author: 'thinkflow' },
      files: ['references/style.md', 'scripts/fetch.sh'],
    });
    expect(weather.body).toMatch(/^# Weather report/);
    expect(skills[0].compatibility).toBe('Needs a PDF form file in the working folder.');
    expect(await weather.readFile('scripts/fetch.sh')).toContain('touch');
    expect(existsSync(path.join(homedir(), 'thinkflow-skill-script-ran'))).toBe(false);
  });

  it('in strict mode, invalid frontmatter is a ConfigError naming the file and the problem', async () => {
    const bad = path.join(FIXTURES, 'invalid', 'bad-name');
    await expect(loadSkills(bad, { strict: true })).rejects.toThrow(
      `Invalid skill ${path.join(bad, 'SKILL.md')}: "name" must be 1-64 lowercase letters`,
    );
    const none = path.join(FIXTURES, 'invalid', 'no-description');
    await expect(loadSkills(none, { strict: true })).rejects.toThrow(
      `${path.join(none, 'SKILL.md')}: "description" is required`,
    );
    const where = { file: 'x/SKILL.md', folder: 'x' };
    expect(() => parseSkillMarkdown('no frontmatter', where)).toThrow(
      'x/SKILL.md: it must start with YAML frontmatter',
    );
    expect(() => parseSkillMarkdown('---\nname: [x\n---\n', where)).toThrow('frontmatter is not valid YAML');
    expect(() => parseSkillMarkdown('---\nname: x\ndescription: d\nversion: 2\n---\n', where)).toThrow(
      'unknown frontmatter field "version"',
    );
    expect(() => parseSkillMarkdown('---\nname: y\ndescription: d\n---\n', where)).toThrow(
      `"name" must match its folder's name "x"`,
    );
    expect(() => parseSkillMarkdown('---\nname: a--b\ndescription: d\n---\n', { ...where, folder: 'a--b' })).toThrow(
      '"name" must be',
    );
  });

  it('read_skill_file stays inside the skill folder: no ../, no absolute path, no symbolic link out', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'skills-'));
    temps.push(root);
    await cp(VALID, root, { recursive: true });
    await writeFile(path.join(root, 'secret.txt'), 'top secret');
    await symlink(path.join(root, 'secret.txt'), path.join(root, 'pdf-forms', 'assets', 'link.txt'));
    const [pdf] = await loadSkills(root);
    await expect(pdf.readFile('../secret.txt')).rejects.toThrow('contains ".."');
    await expect(pdf.readFile('assets/../../secret.txt')).rejects.toThrow('contains ".."');
    await expect(pdf.readFile(path.join(root, 'secret.txt'))).rejects.toThrow('is absolute');
    await expect(pdf.readFile('assets/link.txt')).rejects.toThrow("outside the skill's folder");
    await expect(pdf.readFile('assets/missing.txt')).rejects.toThrow('The skill has no file "assets/missing.txt"');
    expect(await pdf.readFile('assets/template.txt')).toContain('signature');
  });
});

describe('skills in an agent', () => {
  const tools = ['get_weather', 'convert_units', 'send_email', 'create_invoice'].map(tool);

  it('lists the catalogue, loads a skill (an event), and its allowed-tools narrow the tools sent', async () => {
    const model = scriptedModel([
      call('load_skill', { name: 'weather-report' }),
      call('read_skill_file', { name: 'weather-report', path: '../pdf-forms/SKILL.md' }),
      call('read_skill_file', { name: 'weather-report', path: 'references/style.md' }),
      'Sunny, 21 °C.',
    ]);
    const events: AgentEvent[] = [];
    const agent = new Agent({ model, tools, skills: [VALID] });
    const result = await agent.run('What will the weather be in Lyon?', { onEvent: (e) => events.push(e) });
    expect(result.status).toBe('done');
    const system = String(model.calls[0].messages[0].content);
    expect(system).toContain('- weather-report: Writes a short weather report for a city.');
    expect(system).toContain('- release-notes: Drafts release notes');
    const names = (i: number) => model.calls[i].tools?.map((t) => t.name);
    expect(names(0)).toEqual([...tools.map((t) => t.name), 'load_skill', 'read_skill_file']);
    expect(events.find((e) => e.type === 'skill_activate')).toMatchObject({
      step: 0,
      skill: 'weather-report',
      allowedTools: ['get_weather', 'convert_units'],
    });
    expect(result.steps[0].toolCalls[0].output).toContain('1. Call get_weather for the city.');
    expect(result.steps[0].toolCalls[0].output).toContain('references/style.md');
    // From the next call on, only the skill's tools (and the skill tools) are offered.
    expect(names(1)).toEqual(['get_weather', 'convert_units', 'load_skill', 'read_skill_file']);
    expect(result.steps[1].toolCalls[0]).toMatchObject({ ok: false });
    expect(result.steps[1].toolCalls[0].output).toContain('contains ".."');
    expect(result.steps[2].toolCalls[0].output).toContain('Plain, friendly');
  });

  it("reads Claude Code's tool names in allowed-tools, and a list naming none of the run's tools narrows nothing", async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'skills-cc-'));
    temps.push(root);
    const skill = async (name: string, allowed: string) => {
      await cp(path.join(VALID, 'release-notes'), path.join(root, name), { recursive: true });
      const text = `---\nname: ${name}\ndescription: The ${name} skill.\nallowed-tools: ${allowed}\n---\nDo it.\n`;
      await writeFile(path.join(root, name, 'SKILL.md'), text);
    };
    await skill('files', 'Read Bash(git:*) WebFetch');
    await skill('elsewhere', 'mcp__brex__search NotebookEdit');
    const ours = ['read_file', 'bash', 'http_get', 'write_file', 'get_weather'].map(tool);
    const model = scriptedModel([
      call('load_skill', { name: 'files' }),
      call('load_skill', { name: 'elsewhere' }),
      'ok',
    ]);
    await new Agent({ model, tools: ours, skills: [root] }).run('x');
    const names = (i: number) => model.calls[i].tools?.map((t) => t.name);
    expect(names(1)).toEqual(['read_file', 'bash', 'http_get', 'load_skill', 'read_skill_file']);
    // Written for another agent's tools: the run keeps all of its own.
    expect(names(2)).toEqual([...ours.map((t) => t.name), 'load_skill', 'read_skill_file']);
  });

  it('beyond the catalogue budget, skills are found with search_skills', async () => {
    const model = scriptedModel([call('search_skills', { query: 'release notes from merged changes' }), 'ok']);
    const result = await new Agent({ model, tools, skills: [VALID], skillCatalogTokens: 60 }).run('Draft notes.');
    const system = String(model.calls[0].messages[0].content);
    expect(system).toMatch(/more skills are not listed: find them with search_skills/);
    expect(model.calls[0].tools?.map((t) => t.name)).toContain('search_skills');
    expect(result.steps[0].toolCalls[0].output).toMatch(/^- release-notes: /);
  });

  it('a run starts with at most 50 skill warnings, and one more saying how many were left out', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'skills-many-'));
    temps.push(root);
    for (let i = 0; i < 60; i++) {
      await cp(path.join(VALID, 'release-notes'), path.join(root, `s${i}`), { recursive: true });
    }
    const events: AgentEvent[] = [];
    const result = await new Agent({ model: scriptedModel(['ok']), skills: [root] }).run('x', {
      onEvent: (e) => events.push(e),
    });
    expect(result.status).toBe('done');
    const warnings = events.filter((e) => e.type === 'warning');
    // Each copy's name differs from its folder's (60 warnings), and all but the first share one name (59).
    expect(warnings).toHaveLength(51);
    expect(warnings.at(-1)).toMatchObject({ code: 'skill', message: expect.stringMatching(/^69 more skill warnings/) });
  });

  it('a call to a tool that does not exist is told the skill tools it may call', async () => {
    const model = scriptedModel([call('load_skil', { name: 'weather-report' }), 'ok']);
    const result = await new Agent({ model, skills: [VALID] }).run('Weather in Lyon?');
    const output = result.steps[0].toolCalls[0].output;
    expect(output).toContain('Did you mean "load_skill"?');
    expect(output).toContain('Available tools: load_skill, read_skill_file.');
  });

  it('takes skills already loaded, and an agent without skills offers no skill tools', async () => {
    const skills = await loadSkills(path.join(VALID, 'release-notes'));
    const model = scriptedModel(() => 'ok');
    await new Agent({ model, tools, skills }).run('x');
    expect(model.calls[0].tools?.map((t) => t.name)).toContain('load_skill');
    await new Agent({ model, tools }).run('x');
    expect(model.calls[1].tools?.map((t) => t.name)).not.toContain('load_skill');
  });
});
