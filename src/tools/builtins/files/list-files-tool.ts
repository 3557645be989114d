import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { formatBytes } from '../shared/format-bytes.js';
import { defineFileTool } from './define-file-tool.js';

const MAX_ENTRIES = 300;

/** `list_files`: the entries of a folder inside the root, one a line (`name/` for folders, sizes for files). */
export function listFilesTool(root: string) {
  return defineFileTool(root, {
    name: 'list_files',
    description: 'List the files and folders in a folder (paths are relative to the working folder).',
    paths: {
      path: {
        use: 'read',
        description: 'Folder relative to the root, e.g. "reports". Default: the root.',
        default: '.',
      },
    },
    fields: { recursive: z.boolean().default(false).describe('Also list sub-folders (up to 4 levels).') },
    run: async (input, { path: folder }) => {
      const info = await stat(folder.path);
      if (!info.isDirectory()) throw new Error(`"${input.path}" is a file, not a folder; use read_file to read it.`);
      const lines: string[] = [];
      await walk(folder.path, '', input.recursive ? 4 : 1, lines);
      if (lines.length === 0) return `${folder.relative} is empty.`;
      const shown = lines.slice(0, MAX_ENTRIES);
      if (lines.length > MAX_ENTRIES) shown.push(`[… ${lines.length - MAX_ENTRIES} more entries not shown]`);
      return shown.join('\n');
    },
  });
}

async function walk(dir: string, prefix: string, depth: number, lines: string[]): Promise<void> {
  const entries: Dirent[] = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (lines.length > MAX_ENTRIES) return;
    const name = prefix + entry.name;
    // Symbolic links are listed, never followed: the target may be outside the root.
    if (entry.isSymbolicLink()) lines.push(`${name} (symbolic link)`);
    else if (entry.isDirectory()) {
      lines.push(`${name}/`);
      if (depth > 1) await walk(path.join(dir, entry.name), `${name}/`, depth - 1, lines);
    } else if (entry.isFile()) {
      const size = await stat(path.join(dir, entry.name)).then(
        (s) => s.size,
        () => 0,
      );
      lines.push(`${name}  ${formatBytes(size)}`);
    }
  }
}
