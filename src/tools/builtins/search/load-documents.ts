import { constants, type Dirent } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** One searchable passage of a document. */
export interface Passage {
  id: number;
  path: string;
  title: string;
  text: string;
}

/** Limits on what the document search reads. */
export interface LoadLimits {
  maxFiles: number;
  maxBytesPerFile: number;
  extensions: string[];
}

/** A document folder's state: when it changes, the index is rebuilt. */
export interface FolderSnapshot {
  signature: string;
  files: { path: string; absolute: string }[];
}

const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'build', '.cache']);

/** Lists the text files under `root` (never following symbolic links, so nothing outside is read). */
export async function snapshotFolder(root: string, limits: LoadLimits): Promise<FolderSnapshot> {
  const realRoot = await realpath(root);
  const files: { path: string; absolute: string; stamp: string }[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 12 || files.length >= limits.maxFiles) return;
    const entries: Dirent[] = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (files.length >= limits.maxFiles) return;
      const absolute = path.join(dir, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith('.') && !SKIP_DIRS.has(entry.name))
        await walk(absolute, depth + 1);
      else if (entry.isFile() && limits.extensions.includes(path.extname(entry.name).toLowerCase())) {
        files.push({ path: path.relative(realRoot, absolute), absolute, stamp: '' });
      }
    }
  };
  await walk(realRoot, 0);
  for (const file of files) {
    const info = await stat(file.absolute).catch(() => undefined);
    file.stamp = info ? `${info.size}:${info.mtimeMs}` : 'gone';
  }
  return { signature: files.map((f) => `${f.path}@${f.stamp}`).join('\n'), files };
}

/** Reads the files and splits them into passages of about `passageChars` characters, on paragraph breaks. */
export async function loadPassages(
  snapshot: FolderSnapshot,
  limits: LoadLimits,
  passageChars = 1200,
): Promise<Passage[]> {
  const passages: Passage[] = [];
  for (const file of snapshot.files) {
    const text = await readHead(file.absolute, limits.maxBytesPerFile);
    if (text === undefined) continue;
    const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? path.basename(file.path);
    for (const chunk of chunkText(text, passageChars)) {
      passages.push({ id: passages.length, path: file.path, title, text: chunk });
    }
  }
  return passages;
}

async function readHead(file: string, maxBytes: number): Promise<string | undefined> {
  // The walk saw a regular file; a link or FIFO swapped in since is not followed, nor waited on.
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
    () => undefined,
  );
  if (!handle) return undefined;
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = Buffer.alloc(maxBytes);
    const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
    const bytes = buffer.subarray(0, bytesRead);
    return bytes.includes(0) ? undefined : bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}

/** Paragraph-aligned chunks; a paragraph longer than `size` is cut hard. */
export function chunkText(text: string, size: number): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const paragraph of text.split(/\n\s*\n/)) {
    const trimmed = paragraph.trim();
    if (!trimmed) continue;
    if (current && current.length + trimmed.length + 2 > size) {
      chunks.push(current);
      current = '';
    }
    for (let start = 0; start < trimmed.length; start += size) {
      const piece = trimmed.slice(start, start + size);
      current = current ? `${current}\n\n${piece}` : piece;
      if (current.length >= size) {
        chunks.push(current);
        current = '';
      }
    }
  }
  if (current) chunks.push(current);
  return chunks;
}
