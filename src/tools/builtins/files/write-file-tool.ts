import { constants } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { formatBytes } from '../shared/format-bytes.js';
import { defineFileTool } from './define-file-tool.js';
import { confirmFolderUnchanged, resolveInRootOrThrow } from './resolve-in-root.js';

/** `write_file`: writes or appends a text file inside the root. Needs approval. */
export function writeFileTool(root: string) {
  return defineFileTool(root, {
    name: 'write_file',
    description: 'Write (or append to) a text file. Creates missing folders.',
    paths: { path: { use: 'write', description: 'File path relative to the root; missing folders are created.' } },
    fields: {
      content: z.string().describe('The full text to write.'),
      append: z.boolean().default(false).describe('Add to the end instead of replacing the file.'),
    },
    run: async (input, { path: file }) => {
      const existing = file.exists ? await stat(file.path) : undefined;
      if (existing?.isDirectory()) throw new Error(`"${input.path}" is a folder; write to a file inside it.`);
      // A FIFO or device would block or write somewhere else entirely: only regular files are written.
      if (existing && !existing.isFile()) throw new Error(`"${input.path}" is not a regular file.`);
      await mkdir(path.dirname(file.path), { recursive: true });
      // Re-check after mkdir, and open with O_NOFOLLOW so a link swapped in meanwhile is not followed.
      const checked = await resolveInRootOrThrow(root, input.path, { purpose: 'write' });
      await confirmFolderUnchanged(checked, input.path);
      const mode = input.append ? constants.O_APPEND : constants.O_TRUNC;
      const handle = await open(
        checked.path,
        constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK | mode,
      );
      try {
        await handle.writeFile(input.content, 'utf8');
      } finally {
        await handle.close();
      }
      const bytes = Buffer.byteLength(input.content);
      return `${input.append ? 'Appended' : 'Wrote'} ${formatBytes(bytes)} to ${checked.relative}.`;
    },
  });
}
