/** What each file-system error code means for the model, phrased about the path it asked for. */
const MEANINGS: Record<string, string> = {
  ENOENT: 'does not exist; list_files shows what is there',
  ENOTDIR: 'goes through something that is a file, not a folder',
  EISDIR: 'is a folder, not a file',
  EEXIST: 'already exists',
  ENOTEMPTY: 'is a folder that is not empty',
  EACCES: 'is not accessible (permission denied)',
  EPERM: 'cannot be changed (operation not permitted)',
  ELOOP: 'is or goes through a symbolic link, which is refused here',
  EINVAL: 'cannot be used for this (e.g. a folder moved into itself)',
  EXDEV: 'is on another file system and cannot be moved there',
  EBUSY: 'is in use',
  ENXIO: 'is not a regular file',
  ENAMETOOLONG: 'is too long',
  ENOSPC: 'cannot be written: the disk is full',
  EROFS: 'is on a read-only file system',
};

/**
 * Turns a raw file-system error (`ENOENT: no such file or directory, open '/abs/…'`) into the files
 * tools' own sentence about the path the model asked for, without the absolute path. Errors the tools
 * raised themselves (no `code`) pass through unchanged.
 */
export function readableFileError(error: unknown, requested: string): Error {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code))
    return error instanceof Error ? error : new Error(String(error));
  const meaning = MEANINGS[code] ?? `could not be used (${code})`;
  return new Error(`"${requested}" ${meaning}.`);
}
