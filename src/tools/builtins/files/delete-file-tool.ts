import { lstat, rm } from 'node:fs/promises';
import { z } from 'zod';
import type { Tool } from '../../tool.js';
import { defineFileTool } from './define-file-tool.js';
import { confirmFolderUnchanged } from './resolve-in-root.js';

const DeleteFileInput = z.object({
  path: z.string().describe('File or folder relative to the root.'),
  recursive: z.boolean().default(false).describe('Required to delete a folder and everything in it.'),
});

/** `delete_file`: deletes a file (or, with `recursive`, a folder) inside the root. Needs approval. */
export function deleteFileTool(root: string): Tool<z.infer<typeof DeleteFileInput>, string> {
  return defineFileTool(root, {
    name: 'delete_file',
    description: 'Delete a file, or a folder with recursive: true.',
    input: DeleteFileInput,
    // The whole path is judged as an entry: a symbolic link is deleted itself (never its target), and
    // `..`, the root itself or anything resolving outside is refused before the disk is touched.
    paths: { path: 'entry' },
    run: async (input, { path: target }) => {
      const info = await lstat(target.path);
      if (info.isDirectory() && !input.recursive) {
        throw new Error(`"${input.path}" is a folder; pass recursive: true to delete it and its contents.`);
      }
      await confirmFolderUnchanged(target, input.path);
      await rm(target.path, { recursive: input.recursive, force: false });
      return `Deleted ${target.relative}.`;
    },
  });
}
