import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../llm/providers/openai-server.js';
import type { WireServer } from '../llm/providers/wire-server.js';
import { runCli } from './run-cli.js';

const SKILLS = join(import.meta.dirname, '..', 'fixtures', 'skills');

describe('thinkflow run --skills (spawned CLI)', { timeout: 180_000 }, () => {
  let server: WireServer;
  beforeAll(async () => {
    server = await startOpenAIServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('puts the skills catalogue in the system prompt and offers load_skill', async () => {
    server.push('Noted.');
    const result = await runCli([
      'run',
      '--model',
      `compat:${server.url}/v1#m`,
      '--skills',
      join(SKILLS, 'valid'),
      'Draft the release notes.',
    ]);
    expect(result.stdout.trim()).toBe('Noted.');
    const body = server.requests[0].body as {
      messages: { content: string }[];
      tools: { function: { name: string } }[];
    };
    expect(body.messages[0].content).toContain('- release-notes: Drafts release notes');
    expect(body.tools.map((t) => t.function.name)).toContain('load_skill');
  });

  it('a bad SKILL.md stops the run with an error naming the file', async () => {
    const result = await runCli([
      'run',
      '--model',
      `compat:${server.url}/v1#m`,
      '--skills',
      join(SKILLS, 'invalid', 'bad-name'),
      'x',
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(join(SKILLS, 'invalid', 'bad-name', 'SKILL.md'));
    expect(result.stderr).toContain('"name" must be');
  });

  it('prints each warning of a skill that breaks a rule once, on stderr, and runs with the others', async () => {
    const root = await mkdtemp(join(tmpdir(), 'thinkflow-cli-skills-'));
    try {
      await mkdir(join(root, 'notes'));
      await writeFile(join(root, 'notes', 'SKILL.md'), '---\nname: notes\ndescription: Takes notes.\n---\nBody.\n');
      await mkdir(join(root, 'bare'));
      await writeFile(join(root, 'bare', 'SKILL.md'), 'No frontmatter.\n');
      server.push('Noted.');
      const result = await runCli(['run', '--model', `compat:${server.url}/v1#m`, '--skills', root, 'Take a note.']);
      expect(result.code).toBe(0);
      expect(result.stdout.trim()).toBe('Noted.');
      const line = `warning: ${join(root, 'bare', 'SKILL.md')}: it must start with YAML frontmatter`;
      expect(result.stderr.split(line).length - 1).toBe(1);
      const body = server.requests.at(-1)!.body as { messages: { content: string }[] };
      expect(body.messages[0].content).toContain('- notes: Takes notes.');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
