import { lstat, mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, type Tool } from '../../tool.js';
import { resolveInRootOrThrow } from './resolve-in-root.js';

const MoveFileInput = z.object({
  from: z.string().describe('Existing file or folder, relative to the root.'),
  to: z.string().describe('New path, relative to the root.'),
  overwrite: z.boolean().default(false).describe('Replace an existing file at "to".'),
});

/** `move_file`: renames or moves a file or folder inside the root. Needs approval. */
export function moveFileTool(root: string): Tool<z.infer<typeof MoveFileInput>, string> {
  return defineTool({
    name: 'move_file',
    description: 'Move or rename a file or folder.',
    input: MoveFileInput,
    needsApproval: true,
    sequential: true,
    run: async (input) => {
      // Like delete: a symbolic link is moved itself, never its target, so only its folder is resolved.
      const fromParent = await resolveInRootOrThrow(root, path.dirname(input.from));
      const base = path.basename(input.from);
      if (base === '.' || base === '') throw new Error('The root folder itself cannot be moved.');
      const fromPath = path.join(fromParent.path, base);
      if (!(await lstat(fromPath).catch(() => undefined))) throw new Error(`"${input.from}" does not exist.`);
      const to = await resolveInRootOrThrow(root, input.to);
      if (to.exists && !input.overwrite) {
        throw new Error(`"${input.to}" already exists; pass overwrite: true to replace it.`);
      }
      await mkdir(path.dirname(to.path), { recursive: true });
      await rename(fromPath, to.path);
      return `Moved ${path.join(fromParent.relative, base)} to ${to.relative}.`;
    },
  });
}
