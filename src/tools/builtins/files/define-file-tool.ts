import { z } from 'zod';
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

/** A path field of a files tool's input: what the tool does there, what the model reads about it, and its default. */
export interface PathField {
  use: PathUse;
  description: string;
  /** The path when the model leaves the field out (`.`: the root). Without it the field is required. */
  default?: string;
}

/** The input a files tool runs with: its path fields (strings) and its other fields. */
export type FileToolInput<P extends string, F extends z.ZodRawShape> = Record<P, string> & z.infer<z.ZodObject<F>>;

/** A files tool: its name and description, its path fields, its other fields, and what it does. */
export interface FileToolSpec<P extends string, F extends z.ZodRawShape> {
  name: string;
  description: string;
  /**
   * The input's path fields, declared only here (the input schema gets them first, in this order), so
   * every one is resolved inside the root before `run`. A tool whose paths are all `read` only reads
   * (idempotent); any other use changes the disk, so the tool needs approval and runs alone.
   */
  paths: Record<P, PathField>;
  /** The input's other fields. */
  fields?: F;
  /** Runs with each path already resolved inside the root (and, where it must, found to exist). */
  run: (input: FileToolInput<P, F>, paths: Record<P, InRoot>) => Promise<string>;
}

/**
 * Defines a files tool confined to `root`: each path field is resolved inside the root before `run`
 * (a path that leaves it, or one that must exist and does not, is refused first), and a raw file-system
 * error becomes the files tools' sentence about the path asked for (the last path field, once all resolved).
 */
export function defineFileTool<P extends string, F extends z.ZodRawShape = Record<never, never>>(
  root: string,
  spec: FileToolSpec<P, F>,
): Tool<FileToolInput<P, F>, string> {
  const { paths, fields: others, run, ...tool } = spec;
  const fields = Object.keys(paths) as P[];
  const changes = fields.some((field) => paths[field].use !== 'read');
  const input = z.object({
    ...Object.fromEntries(fields.map((field) => [field, pathSchema(paths[field])])),
    ...others,
  });
  return defineTool({
    ...tool,
    input: input as unknown as z.ZodType<FileToolInput<P, F>>,
    ...(changes ? { needsApproval: true, sequential: true } : { idempotent: true }),
    run: async (input) => {
      const resolved = {} as Record<P, InRoot>;
      let requested = '';
      try {
        for (const field of fields) {
          requested = input[field];
          const { purpose, mustExist } = PURPOSES[paths[field].use];
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

function pathSchema(field: PathField): z.ZodType<string> {
  const path = field.default === undefined ? z.string() : z.string().default(field.default);
  return path.describe(field.description);
}
