import type { z } from 'zod';
import { defineTool, type Tool } from '../../tool.js';
import { readableFileError } from './readable-file-error.js';

/** A files tool: its name, description and input, whether it changes the disk, and what it does. */
export interface FileToolSpec<S extends z.ZodType> {
  name: string;
  description: string;
  input: S;
  /** True for a tool that writes, moves or deletes: it needs approval and runs alone. Else it only reads. */
  changes: boolean;
  /** The path a file-system error is about; `run` points `at.path` elsewhere when it moves on to another. */
  pathOf: (input: z.infer<S>) => string;
  run: (input: z.infer<S>, at: { path: string }) => Promise<string>;
}

/**
 * Defines a files tool: one that changes the disk needs approval and runs alone, one that reads is
 * idempotent, and a raw file-system error becomes the files tools' sentence about the path asked for.
 */
export function defineFileTool<S extends z.ZodType>(spec: FileToolSpec<S>): Tool<z.infer<S>, string> {
  const { changes, pathOf, run, ...tool } = spec;
  return defineTool({
    ...tool,
    ...(changes ? { needsApproval: true, sequential: true } : { idempotent: true }),
    run: async (input) => {
      const at = { path: pathOf(input) };
      try {
        return await run(input, at);
      } catch (error) {
        throw readableFileError(error, at.path);
      }
    },
  });
}
