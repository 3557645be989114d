import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinTools } from '../../../src/tools/builtins/node.js';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'tf-kits-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('builtinTools', () => {
  it('offers every kit by name', () => {
    for (const kit of ['demo', 'calculator', 'files', 'data', 'chart', 'http', 'search', 'datetime', 'units']) {
      expect(Object.keys(builtinTools)).toContain(kit);
    }
  });

  it('builds each kit from the shared options, with unique, described tools', () => {
    const names = new Set<string>();
    for (const [kit, factory] of Object.entries(builtinTools)) {
      // The demo kit is the demo model's set: the calculator again, plus the mock-data tools.
      if (kit === 'demo') continue;
      for (const tool of factory({ root, allowWrite: true })) {
        expect(names.has(tool.name), `${tool.name} (kit ${kit}) is defined twice`).toBe(false);
        names.add(tool.name);
        expect(tool.description.length).toBeGreaterThan(10);
        expect(tool.parameters.type).toBe('object');
      }
    }
    expect([...names]).toEqual(
      expect.arrayContaining([
        'list_files',
        'read_file',
        'write_file',
        'describe_data',
        'query_data',
        'aggregate_data',
        'draw_chart',
        'http_get',
        'search_documents',
        'current_time',
        'date_add',
        'date_diff',
        'convert_units',
      ]),
    );
  });

  it('leaves writing off unless asked', () => {
    const files = builtinTools.files?.({ root }) ?? [];
    expect(files.map((t) => t.name)).not.toContain('write_file');
  });
});
