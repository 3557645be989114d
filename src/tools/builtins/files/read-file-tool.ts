import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { z } from 'zod';
import { formatBytes } from '../shared/format-bytes.js';
import { defineFileTool, type FileToolInput } from './define-file-tool.js';
import type { InRoot } from './resolve-in-root.js';

/** What `read_file` is asked besides the path: a byte range, to read part of a large file. */
const RANGE = {
  offset: z.number().int().min(0).optional().describe('Byte to start at, to read part of a large file.'),
  length: z.number().int().min(1).optional().describe('Bytes to read from offset (at most the read limit).'),
};

/** `read_file`: a UTF-8 text file inside the root, refused with its size when over `maxBytes` (unless a range is asked). */
export function readFileTool(root: string, maxBytes: number) {
  return defineFileTool(root, {
    name: 'read_file',
    description: `Read a text file. Files over ${formatBytes(maxBytes)} must be read in parts with offset and length.`,
    paths: { path: { use: 'read', description: 'File path relative to the root, e.g. "notes/todo.md".' } },
    fields: RANGE,
    run: async (input, { path: file }) => await readResolved(file, maxBytes, input),
  });
}

async function readResolved(
  file: InRoot,
  maxBytes: number,
  input: FileToolInput<'path', typeof RANGE>,
): Promise<string> {
  // The resolved path is real, so O_NOFOLLOW refuses a link swapped in since; O_NONBLOCK keeps a FIFO from
  // blocking the open, and the type is then checked on the open handle itself (no check-then-open race).
  const handle = await open(file.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new Error(`"${input.path}" is a folder; use list_files to see what it holds.`);
    // A FIFO or device would block or never end: only regular files are read.
    if (!info.isFile()) throw new Error(`"${input.path}" is not a regular file.`);
    const ranged = input.offset !== undefined || input.length !== undefined;
    if (!ranged && info.size > maxBytes) {
      throw new Error(
        `"${input.path}" is ${formatBytes(info.size)} (${info.size} bytes), over the ${formatBytes(maxBytes)} read limit. ` +
          'Read a part with offset and length, or query it with the data tools.',
      );
    }
    const start = input.offset ?? 0;
    const length = Math.min(input.length ?? maxBytes, maxBytes, Math.max(0, info.size - start));
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, start);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.subarray(0, 8000).includes(0))
      throw new Error(`"${input.path}" looks binary; only text files can be read.`);
    const text = bytes.toString('utf8');
    if (!ranged) return text;
    return `[bytes ${start}-${start + bytesRead} of ${info.size}]\n${text}`;
  } finally {
    await handle.close();
  }
}
