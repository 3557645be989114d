import { lstat, rm } from 'node:fs/promises';
import { z } from 'zod';
import { defineFileTool } from './define-file-tool.js';
import { confirmFolderUnchanged } from './resolve-in-root.js';

/** `delete_file`: deletes a file (or, with `recursive`, a folder) inside the root. Needs approval. */
export function deleteFileTool(root: string) {
  return defineFileTool(root, {
    name: 'delete_file',
    description: 'Delete a file, or a folder with recursive: true.',
    // The whole path is judged as an entry: a symbolic link is deleted itself (never its target), and
    // `..`, the root itself or anything resolving outside is refused before the disk is touched.
    paths: { path: { use: 'entry', description: 'File or folder relative to the root.' } },
    fields: {
      recursive: z.boolean().default(false).describe('Required to delete a folder and everything in it.'),
    },
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
