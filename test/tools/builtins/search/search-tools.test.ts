import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkText } from '../../../../src/tools/builtins/search/load-documents.js';
import { searchDocumentsTool } from '../../../../src/tools/builtins/search/search-documents-tool.js';
import { type WebSearchResult, webSearchTool } from '../../../../src/tools/builtins/search/web-search-tool.js';
import { runTool } from '../run-tool.js';

let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'tf-search-'));
  root = path.join(base, 'docs');
  await mkdir(path.join(root, 'guides'), { recursive: true });
  await mkdir(path.join(root, 'node_modules'));
  await writeFile(
    path.join(root, 'guides', 'install.md'),
    '# Installing\n\nRun npm install thinkflow to add the package.',
  );
  await writeFile(path.join(root, 'tools.md'), '# Tools\n\nA tool has a zod schema. The executor validates arguments.');
  await writeFile(path.join(root, '单位.md'), '# 计量\n\n用户喜欢使用公制单位，温度用摄氏度。');
  await writeFile(path.join(root, '天気.txt'), '東京の天気は明日晴れるでしょう。');
  await writeFile(path.join(root, 'memory.txt'), 'Long-term memory is stored in SQLite under the data directory.');
  await writeFile(path.join(root, 'image.png'), 'sqlite sqlite sqlite');
  await writeFile(path.join(root, 'node_modules', 'dep.md'), 'sqlite inside node_modules');
  await writeFile(path.join(base, 'secret.md'), 'sqlite secret outside the root');
  await symlink(path.join(base, 'secret.md'), path.join(root, 'link.md'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('search_documents', () => {
  it('ranks the passage that matches best first, with its path', async () => {
    const text = (await runTool(searchDocumentsTool({ root }), { query: 'sqlite memory' })) as string;
    expect(text.startsWith('1. memory.txt (score')).toBe(true);
    expect(text).toContain('Long-term memory is stored in SQLite');
  });

  it('finds a Chinese or Japanese word inside a run of characters', async () => {
    const search = searchDocumentsTool({ root });
    expect(await runTool(search, { query: '公制单位' })).toMatch(/^1\. 单位\.md/);
    expect(await runTool(search, { query: '摄氏度是什么' })).toMatch(/^1\. 单位\.md/);
    expect(await runTool(search, { query: '天気' })).toMatch(/^1\. 天気\.txt/);
  });

  it('matches prefixes and small typos, and boosts titles', async () => {
    const search = searchDocumentsTool({ root });
    expect(await runTool(search, { query: 'instal' })).toContain(path.join('guides', 'install.md'));
    expect(await runTool(search, { query: 'validats' })).toContain('tools.md');
  });

  it('skips other file types, node_modules, and symbolic links that lead outside', async () => {
    const text = (await runTool(searchDocumentsTool({ root }), { query: 'sqlite', limit: 20 })) as string;
    expect(text).not.toMatch(/image\.png|node_modules|secret|link\.md/);
  });

  it('re-indexes when a file changes', async () => {
    const search = searchDocumentsTool({ root });
    expect(await runTool(search, { query: 'zebra' })).toMatch(/No passages match "zebra" \(5 files searched\)/);
    await writeFile(path.join(root, 'zoo.md'), 'The zebra lives here.');
    expect(await runTool(search, { query: 'zebra' })).toContain('zoo.md');
  });

  it('caps its output', async () => {
    await writeFile(
      path.join(root, 'long.md'),
      Array.from({ length: 50 }, (_, i) => `Paragraph ${i} about caching.`).join('\n\n'),
    );
    const text = (await runTool(searchDocumentsTool({ root, maxOutputChars: 300 }), {
      query: 'caching',
      limit: 20,
    })) as string;
    expect(text.length).toBeLessThan(360);
    expect(text).toMatch(/cut/);
  });
});

describe('chunkText', () => {
  it('splits on paragraphs and cuts long ones', () => {
    expect(chunkText('a\n\nb\n\nc', 4)).toEqual(['a\n\nb', 'c']);
    expect(chunkText('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });
});

describe('webSearchTool', () => {
  it('calls the provider with the query, limit and signal, and lists the results', async () => {
    const calls: unknown[] = [];
    const provider = async (
      query: string,
      options: { limit: number; signal: AbortSignal },
    ): Promise<WebSearchResult[]> => {
      calls.push({ query, limit: options.limit, signal: options.signal instanceof AbortSignal });
      return [
        { title: 'Thinkflow', url: 'https://example.com/tf', snippet: 'An agent\nframework.' },
        { title: 'Other', url: 'https://example.com/o', snippet: 'x' },
      ];
    };
    const text = await runTool(webSearchTool(provider), { query: 'agents', limit: 1 });
    expect(text).toBe('1. Thinkflow\n   https://example.com/tf\n   An agent framework.');
    expect(calls).toEqual([{ query: 'agents', limit: 1, signal: true }]);
  });

  it('says so when there are no results', async () => {
    expect(
      await runTool(
        webSearchTool(async () => []),
        { query: 'nothing' },
      ),
    ).toBe('No results for "nothing".');
  });
});
