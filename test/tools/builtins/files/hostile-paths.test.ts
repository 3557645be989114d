import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataTools } from '../../../../src/tools/builtins/data/data-tools.js';
import { fileTools } from '../../../../src/tools/builtins/files/file-tools.js';
import type { AnyTool } from '../../../../src/tools/index.js';
import { pick, runTool } from '../run-tool.js';

/**
 * Every hostile path through every operation of the files and data kits, in a fresh root inside a
 * parent folder that holds siblings. Whatever each call answers, nothing outside the root may change,
 * the root itself must survive, and a refusal is the tool's own sentence, never a raw OS error.
 */

let base: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tf-hostile-')));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A parent folder with siblings around a root that holds files, a folder and links pointing out. */
async function fixture(name: string): Promise<{ parent: string; root: string }> {
  const parent = path.join(base, name);
  const root = path.join(parent, 'root');
  await mkdir(path.join(root, 'sub'), { recursive: true });
  await mkdir(path.join(parent, 'sibling-dir'));
  await mkdir(path.join(parent, 'root-evil'));
  await writeFile(path.join(parent, 'sibling.txt'), 'sibling');
  await writeFile(path.join(parent, 'sibling.csv'), 'sibling,secret\n42,43\n');
  await writeFile(path.join(parent, 'sibling-dir', 'x.txt'), 'x');
  await writeFile(path.join(parent, 'root-evil', 'secret.csv'), 'secret\n42\n');
  await writeFile(path.join(root, 'victim.txt'), 'victim');
  await writeFile(path.join(root, 'data.csv'), 'a,b\n1,2\n');
  await writeFile(path.join(root, 'sub', 'inner.txt'), 'inner');
  await symlink(path.join(parent, 'sibling-dir'), path.join(root, 'dir-out'));
  await symlink(path.join(parent, 'sibling.txt'), path.join(root, 'file-out'));
  await symlink(path.join(parent, 'sibling.csv'), path.join(root, 'csv-out.csv'));
  await symlink('..', path.join(root, 'up'));
  await symlink(parent, path.join(root, 'parent-abs'));
  await symlink(path.join(parent, 'planted.txt'), path.join(root, 'dangling'));
  return { parent, root };
}

/** Everything under `parent` except the root's inside: type, content hash, link target, size, mtime. */
async function snapshotAround(parent: string, root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    const names = await readdir(dir).catch(() => undefined);
    if (names === undefined) {
      out[dir] = 'gone';
      return;
    }
    for (const name of names.sort()) {
      const full = path.join(dir, name);
      const info = await lstat(full);
      if (full === root) {
        out[full] = info.isDirectory() ? 'root folder' : 'root is not a folder any more';
        continue;
      }
      if (info.isSymbolicLink()) out[full] = `link -> ${await readlink(full)}`;
      else if (info.isDirectory()) {
        out[full] = 'dir';
        await walk(full);
      } else {
        const hash = createHash('sha256')
          .update(await readFile(full))
          .digest('hex');
        out[full] = `file ${info.size} ${info.mtimeMs} ${hash}`;
      }
    }
  };
  await walk(parent);
  return out;
}

/** Paths a model could send, hostile or merely odd. `ROOT` and `PARENT` are replaced by the absolute paths. */
const HOSTILE = [
  '..',
  '../',
  './..',
  '.././',
  'sub/../..',
  'sub/..',
  'sub/./../..',
  '../sibling.txt',
  '../sibling-dir',
  '.',
  './',
  '',
  'ROOT',
  'ROOT/',
  'ROOT/.',
  'ROOT/..',
  'PARENT',
  'PARENT/',
  'PARENT/sibling.txt',
  'PARENT/sibling.csv',
  'PARENT/sibling-dir/x.txt',
  'ROOT-evil/secret.csv',
  'PARENT/root-evil/secret.csv',
  'dir-out',
  'dir-out/',
  'dir-out/x.txt',
  'dir-out/new.txt',
  'file-out',
  'csv-out.csv',
  'up',
  'up/',
  'up/sibling.txt',
  'up/root',
  'up/new.txt',
  'parent-abs',
  'parent-abs/sibling.csv',
  'dangling',
  'victim.txt\0../../sibling.txt',
  '..\\',
  '..\\sibling.txt',
  'sub\\..\\..',
  '~',
  '~/sibling.txt',
  '/etc/hostname',
  '/tmp',
  '/',
];

type Operation = { tool: string; input: (p: string) => Record<string, unknown> };

/** Every operation of the files kit, with the hostile path in each path-taking position. */
const FILE_OPERATIONS: Operation[] = [
  { tool: 'list_files', input: (p) => ({ path: p }) },
  { tool: 'list_files', input: (p) => ({ path: p, recursive: true }) },
  { tool: 'read_file', input: (p) => ({ path: p }) },
  { tool: 'read_file', input: (p) => ({ path: p, offset: 0, length: 10 }) },
  { tool: 'write_file', input: (p) => ({ path: p, content: 'pwned' }) },
  { tool: 'write_file', input: (p) => ({ path: p, content: 'pwned', append: true }) },
  { tool: 'move_file', input: (p) => ({ from: p, to: 'moved' }) },
  { tool: 'move_file', input: (p) => ({ from: p, to: 'sub/moved', overwrite: true }) },
  { tool: 'move_file', input: (p) => ({ from: 'victim.txt', to: p }) },
  { tool: 'move_file', input: (p) => ({ from: 'sub', to: p, overwrite: true }) },
  { tool: 'delete_file', input: (p) => ({ path: p }) },
  { tool: 'delete_file', input: (p) => ({ path: p, recursive: true }) },
];

/** The data kit reads files through the same resolution (describe, query, aggregate, extra tables). */
const DATA_OPERATIONS: Operation[] = [
  { tool: 'describe_data', input: (p) => ({ file: p }) },
  { tool: 'query_data', input: (p) => ({ file: p, sql: 'SELECT * FROM data' }) },
  { tool: 'query_data', input: (p) => ({ file: 'data.csv', sql: 'SELECT * FROM t', tables: { t: p } }) },
  { tool: 'aggregate_data', input: (p) => ({ file: p, group_by: 'a', aggregate: 'count' }) },
];

const RAW_OS_ERROR = /\b(E[A-Z]{3,})\b|errno|syscall|no such file or directory/;

function spell(template: string, parent: string, root: string): string {
  return template.replaceAll('ROOT', root).replaceAll('PARENT', parent);
}

async function attempt(tool: AnyTool, input: Record<string, unknown>): Promise<{ ok: boolean; text: string }> {
  try {
    return { ok: true, text: String(await runTool(tool, input)) };
  } catch (error) {
    return { ok: false, text: error instanceof Error ? error.message : String(error) };
  }
}

describe('the files kit never changes anything outside its root', () => {
  let count = 0;
  for (const operation of FILE_OPERATIONS) {
    it(`${operation.tool} ${JSON.stringify(operation.input('P'))} with every hostile path`, async () => {
      const problems: string[] = [];
      for (const template of HOSTILE) {
        const { parent, root } = await fixture(`f${count++}`);
        const before = await snapshotAround(parent, root);
        const tool = pick(fileTools({ root, allowWrite: true }), operation.tool);
        const input = operation.input(spell(template, parent, root));
        const result = await attempt(tool, input);
        const after = await snapshotAround(parent, root);
        const label = `${operation.tool} ${JSON.stringify(input)}`;
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          problems.push(`${label} changed the outside: ${diff(before, after)}`);
        }
        if (!result.ok && RAW_OS_ERROR.test(result.text))
          problems.push(`${label} answered a raw OS error: ${result.text}`);
        if (result.ok && reachedOutside(operation.tool, result.text, base)) {
          problems.push(`${label} reached outside: ${result.text.slice(0, 200)}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});

describe('the data kit never reads outside its root', () => {
  it.each(DATA_OPERATIONS)('$tool with every hostile path', async (operation) => {
    const { parent, root } = await fixture(`d-${operation.tool}-${Math.random().toString(36).slice(2)}`);
    const tools = dataTools({ root });
    const tool = pick(tools, operation.tool);
    const before = await snapshotAround(parent, root);
    const problems: string[] = [];
    for (const template of HOSTILE) {
      const input = operation.input(spell(template, parent, root));
      const result = await attempt(tool, input);
      const label = `${operation.tool} ${JSON.stringify(input)}`;
      if (result.ok && /secret|42/.test(result.text)) problems.push(`${label} read outside: ${result.text}`);
      if (!result.ok && RAW_OS_ERROR.test(result.text))
        problems.push(`${label} answered a raw OS error: ${result.text}`);
    }
    expect(await snapshotAround(parent, root)).toEqual(before);
    expect(problems).toEqual([]);
  });
});

/** A successful answer that shows something from outside: its content, its listing, or a path leaving the root. */
function reachedOutside(tool: string, text: string, base: string): boolean {
  if (tool === 'read_file') return /sibling|secret|^x$/m.test(text);
  if (tool === 'list_files') return /sibling|secret|root-evil|x\.txt/.test(text);
  return text.includes('..') || text.includes(base);
}

function diff(before: Record<string, string>, after: Record<string, string>): string {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys]
    .filter((key) => before[key] !== after[key])
    .map((key) => `${key}: ${before[key] ?? 'absent'} -> ${after[key] ?? 'absent'}`)
    .join('; ');
}
