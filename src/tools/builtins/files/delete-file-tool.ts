import { lstat, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, type Tool } from '../../tool.js';
import { resolveInRootOrThrow } from './resolve-in-root.js';

const DeleteFileInput = z.object({
  path: z.string().describe('File or folder relative to the root.'),
  recursive: z.boolean().default(false).describe('Required to delete a folder and everything in it.'),
});

/** `delete_file`: deletes a file (or, with `recursive`, a folder) inside the root. Needs approval. */
export function deleteFileTool(root: string): Tool<z.infer<typeof DeleteFileInput>, string> {
  return defineTool({
    name: 'delete_file',
    description: 'Delete a file, or a folder with recursive: true.',
    input: DeleteFileInput,
    needsApproval: true,
    sequential: true,
    run: async (input) => {
      // A symbolic link inside the root is deleted itself (never its target), so resolve only its folder.
      const parent = await resolveInRootOrThrow(root, path.dirname(input.path));
      const base = path.basename(input.path);
      if (base === '.' || base === '') throw new Error('The root folder itself cannot be deleted.');
      const target = path.join(parent.path, base);
      const info = await lstat(target).catch(() => undefined);
      if (!info) throw new Error(`"${input.path}" does not exist.`);
      if (info.isDirectory() && !input.recursive) {
        throw new Error(`"${input.path}" is a folder; pass recursive: true to delete it and its contents.`);
      }
      await rm(target, { recursive: input.recursive, force: false });
      return `Deleted ${path.join(parent.relative, base)}.`;
    },
  });
}
