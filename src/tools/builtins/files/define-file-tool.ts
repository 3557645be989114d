import type { z } from 'zod';
import { defineTool, type Tool } from '../../tool.js';
import { readableFileError } from './readable-file-error.js';
import { type InRoot, type PathPurpose, resolveInRootOrThrow } from './resolve-in-root.js';

/**
 * What a files tool does at one of its paths, which decides how the path is resolved (see `PathPurpose`)
 * and whether it must exist already:
 * - `read`: an existing file or folder, symbolic links followed (`read_file`, `list_files`).
 * - `write`: a file that may not exist yet, links followed, never the root itself (`write_file`).
 * - `entry`: an existing entry itself, a link never followed, never the root (`delete_file`, a move's `from`).
 * - `destination`: like `entry`, but it may not exist yet (a move's `to`).
 */
export type PathUse = 'read' | 'write' | 'entry' | 'destination';

const PURPOSES: Record<PathUse, { purpose: PathPurpose; mustExist: boolean }> = {
  read: { purpose: 'read', mustExist: true },
  write: { purpose: 'write', mustExist: false },
  entry: { purpose: 'entry', mustExist: true },
  destination: { purpose: 'entry', mustExist: false },
};

/** The input fields that hold a string. */
type StringFields<I> = { [K in keyof I]-?: I[K] extends string ? K : never }[keyof I] & string;

/** A files tool: its name, description and input, which input fields are paths, and what it does. */
export interface FileToolSpec<S extends z.ZodType, P extends StringFields<z.infer<S>>> {
  name: string;
  description: string;
  input: S;
  /**
   * The input fields that are paths, in the order they are resolved, and what the tool does at each. A
   * tool whose paths are all `read` only reads (idempotent); any other use changes the disk, so the tool
   * needs approval and runs alone.
   */
  paths: Record<P, PathUse>;
  /** Runs with each path already resolved inside the root (and, where it must, found to exist). */
  run: (input: z.infer<S>, paths: Record<P, InRoot>) => Promise<string>;
}

/**
 * Defines a files tool confined to `root`: each path field is resolved inside the root before `run`
 * (a path that leaves it, or one that must exist and does not, is refused first), and a raw file-system
 * error becomes the files tools' sentence about the path asked for (the last path field, once all resolved).
 */
export function defineFileTool<S extends z.ZodType, P extends StringFields<z.infer<S>>>(
  root: string,
  spec: FileToolSpec<S, P>,
): Tool<z.infer<S>, string> {
  const { paths, run, ...tool } = spec;
  const fields = Object.keys(paths) as P[];
  const changes = fields.some((field) => paths[field] !== 'read');
  return defineTool({
    ...tool,
    ...(changes ? { needsApproval: true, sequential: true } : { idempotent: true }),
    run: async (input) => {
      const resolved = {} as Record<P, InRoot>;
      let requested = '';
      try {
        for (const field of fields) {
          requested = input[field] as string;
          const { purpose, mustExist } = PURPOSES[paths[field]];
          const target = await resolveInRootOrThrow(root, requested, { purpose });
          if (mustExist && !target.exists)
            throw new Error(`"${requested}" does not exist; list_files shows what is there.`);
          resolved[field] = target;
        }
        return await run(input, resolved);
      } catch (error) {
        throw readableFileError(error, requested);
      }
    },
  });
}
