import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFileTool, type PathUse } from '../../../../src/tools/builtins/files/define-file-tool.js';
import type { InRoot } from '../../../../src/tools/builtins/files/resolve-in-root.js';
import { runTool } from '../run-tool.js';

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tf-define-file-')));
  await writeFile(path.join(root, 'here.txt'), 'x');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A two-path tool that records what `run` was given, or throws what `fail` says. */
function twoPathTool(uses: { a: PathUse; b: PathUse }, fail?: () => never) {
  const seen: Record<string, InRoot>[] = [];
  const tool = defineFileTool(root, {
    name: 'probe',
    description: 'Probe.',
    paths: { a: { use: uses.a, description: 'A path.' }, b: { use: uses.b, description: 'Another path.' } },
    fields: { note: z.string().optional() },
    run: async (_input, paths) => {
      seen.push(paths);
      if (fail) fail();
      return 'ran';
    },
  });
  return { tool, seen };
}

describe('defineFileTool', () => {
  it('reads only (idempotent, no approval) when every path is read; any other use needs approval and runs alone', () => {
    const reading = twoPathTool({ a: 'read', b: 'read' }).tool;
    expect(reading.needsApproval).toBeFalsy();
    expect(reading.idempotent).toBe(true);
    for (const use of ['write', 'entry', 'destination'] as const) {
      const changing = twoPathTool({ a: 'read', b: use }).tool;
      expect(changing.needsApproval).toBe(true);
      expect(changing.sequential).toBe(true);
    }
  });

  it('puts the path fields first in the input, as required strings with their descriptions', () => {
    const { tool } = twoPathTool({ a: 'read', b: 'write' });
    const properties = tool.parameters.properties as Record<string, unknown>;
    expect(Object.keys(properties)).toEqual(['a', 'b', 'note']);
    expect(properties.a).toEqual({ type: 'string', description: 'A path.' });
    expect(tool.parse({ a: 'x' }).ok).toBe(false);
    expect(tool.parse({ a: 'x', b: 'y' })).toEqual({ ok: true, value: { a: 'x', b: 'y' } });
  });

  it('passes each path resolved inside the root to run', async () => {
    const { tool, seen } = twoPathTool({ a: 'entry', b: 'destination' });
    expect(await runTool(tool, { a: 'here.txt', b: 'new/there.txt' })).toBe('ran');
    expect(seen[0]?.a).toMatchObject({ path: path.join(root, 'here.txt'), relative: 'here.txt', exists: true });
    expect(seen[0]?.b).toMatchObject({ path: path.join(root, 'new', 'there.txt'), exists: false });
  });

  it('refuses a missing read or entry path, and any path outside the root, before run is called', async () => {
    for (const uses of [
      { a: 'read', b: 'read' },
      { a: 'entry', b: 'destination' },
    ] as const) {
      const { tool, seen } = twoPathTool(uses);
      await expect(runTool(tool, { a: 'missing.txt', b: 'here.txt' })).rejects.toThrow(
        '"missing.txt" does not exist; list_files shows what is there.',
      );
      await expect(runTool(tool, { a: 'here.txt', b: '../escape.txt' })).rejects.toThrow(/\.\./);
      expect(seen).toEqual([]);
    }
  });

  it('names the last path in a file-system error from run', async () => {
    const enoent = () => {
      throw Object.assign(new Error(`ENOENT: no such file or directory, rename '${root}/x'`), { code: 'ENOENT' });
    };
    const { tool } = twoPathTool({ a: 'entry', b: 'destination' }, enoent);
    await expect(runTool(tool, { a: 'here.txt', b: 'there.txt' })).rejects.toThrow(
      '"there.txt" does not exist; list_files shows what is there.',
    );
  });
});
