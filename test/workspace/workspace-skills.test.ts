import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSkills } from '../../src/skills/node.js';
import { virtualWorkspace, workspaceSkills } from '../../src/workspace/index.js';

const md = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\nSteps.\n`;

// A marketplace's layout: every plugin has its own `setup`; a project's copy in .claude/skills too.
const files: Record<string, string> = {
  '.skills/plugins/asciinema/skills/setup/SKILL.md': md('setup', 'Sets up asciinema.'),
  '.skills/plugins/floating-clock/skills/setup/SKILL.md': md('setup', 'Sets up the clock.'),
  '.skills/.claude/skills/review/SKILL.md': md('review', 'Reviews a change.'),
  '.skills/skills/review/SKILL.md': md('review', 'Reviews a change, the other copy.'),
  '.skills/node_modules/pkg/skills/bundled/SKILL.md': md('bundled', 'A dependency of a script.'),
  '.skills/.cache/old/SKILL.md': md('old', 'A cached copy.'),
};

describe('workspaceSkills', () => {
  it('reads a workspace as loadSkills reads the same folder on disk: plugin twins, agent folders, no node_modules', async () => {
    const ws = await virtualWorkspace({ files });
    const inWorkspace = await workspaceSkills(ws);
    const root = mkdtempSync(join(tmpdir(), 'thinkflow-ws-skills-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const warnings: string[] = [];
    const onDisk = await loadSkills(join(root, '.skills'), { onWarning: (w) => warnings.push(w.message) });

    const names = inWorkspace.skills.map((s) => s.name).sort();
    expect(names).toEqual(['asciinema:setup', 'floating-clock:setup', 'review']);
    expect(onDisk.map((s) => s.name).sort()).toEqual(names);
    const renamed = inWorkspace.warnings.filter((w) => w.message.includes('is loaded as'));
    expect(renamed.map((w) => w.skipped)).toEqual([false, false]);
    // The project's two copies of `review` name no plugin: the first is kept, with a warning.
    expect(inWorkspace.warnings.some((w) => w.skipped && w.message.includes('Two skills are named "review"'))).toBe(
      true,
    );
    const clock = inWorkspace.skills.find((s) => s.name === 'floating-clock:setup');
    expect(clock?.description).toBe('Sets up the clock.');
  });
});
