import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineFileTool } from './define-file-tool.js';
import { confirmFolderUnchanged, isInside } from './resolve-in-root.js';

/** `move_file`: renames or moves a file or folder inside the root. Needs approval. */
export function moveFileTool(root: string) {
  return defineFileTool(root, {
    name: 'move_file',
    description: 'Move or rename a file or folder.',
    // Both ends are entries: a symbolic link is moved (or replaced) itself, never its target, and the
    // root itself, `..` or anything resolving outside is refused on either side.
    paths: {
      from: { use: 'entry', description: 'Existing file or folder, relative to the root.' },
      to: { use: 'destination', description: 'New path, relative to the root.' },
    },
    fields: { overwrite: z.boolean().default(false).describe('Replace an existing file at "to".') },
    run: async (input, { from, to }) => {
      if (to.path === from.path) throw new Error(`"${input.from}" and "${input.to}" are the same path.`);
      if (isInside(from.path, to.path)) throw new Error(`"${input.from}" cannot be moved into itself.`);
      if (to.exists && !input.overwrite) {
        throw new Error(`"${input.to}" already exists; pass overwrite: true to replace it.`);
      }
      await mkdir(path.dirname(to.path), { recursive: true });
      await confirmFolderUnchanged(from, input.from);
      await confirmFolderUnchanged(to, input.to);
      await rename(from.path, to.path);
      return `Moved ${from.relative} to ${to.relative}.`;
    },
  });
}
