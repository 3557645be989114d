import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docFiles } from './helpers/doc-snippets.js';

const ROOT = join(import.meta.dirname, '..');

/** The markdown outside code blocks: headings and links inside ``` fences are code, not structure. */
function prose(text: string): string {
  let inFence = false;
  return text
    .split('\n')
    .filter((line) => {
      if (line.startsWith('```')) inFence = !inFence;
      return !inFence && !line.startsWith('```');
    })
    .join('\n');
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to `-`, repeats numbered. */
function anchors(path: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of prose(readFileSync(path, 'utf8')).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

describe('README and docs/', () => {
  const files = docFiles(ROOT);

  it('every relative link reaches a file, and every #anchor a heading of it', () => {
    const broken: string[] = [];
    for (const file of files) {
      const text = prose(readFileSync(file, 'utf8'));
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split('#');
        const resolved = path === '' ? file : join(dirname(file), path);
        const where = `${relative(ROOT, file)} → ${target}`;
        if (!existsSync(resolved)) broken.push(`${where}: no such file`);
        else if (anchor && statSync(resolved).isFile() && !anchors(resolved).has(anchor))
          broken.push(`${where}: no such heading`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the README links every docs page', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const unlinked = files
      .filter((file) => file.includes(`${join(ROOT, 'docs')}`))
      .map((file) => relative(ROOT, file))
      .filter((page) => !readme.includes(`](${page})`));
    expect(unlinked).toEqual([]);
  });

  it("the README's architecture table has one row per top-level folder of src/", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('<!-- architecture -->'));
    const rows = [...section.matchAll(/^\| `src\/([^/`]+)\/` \|/gm)].map((m) => m[1]).sort();
    const folders = readdirSync(join(ROOT, 'src'))
      .filter((name) => statSync(join(ROOT, 'src', name)).isDirectory())
      .sort();
    expect(rows).toEqual(folders);
  });
});
