/** A path the workspace refuses: it leaves the root, or names nothing there. The model can fix it. */
export class WorkspacePathError extends Error {
  readonly path: string;
  constructor(path: string, reason: string) {
    super(`${JSON.stringify(path)}: ${reason}`);
    this.name = 'WorkspacePathError';
    this.path = path;
  }
}

const OUTSIDE =
  'is outside the workspace; give a path relative to the workspace root (路径必须在工作区内，使用相对路径)';

/**
 * A path relative to the workspace root, normalized to `/`-separated segments without `.` or `..`
 * (`''` is the root). An absolute path, a drive letter, a NUL or a `..` that climbs above the root is a
 * `WorkspacePathError`: the check is on the words alone; backends then refuse links that point out.
 *
 * @example
 * relativePath('数据/./销售.csv'); // '数据/销售.csv'
 * relativePath('../etc/passwd'); // throws WorkspacePathError
 */
export function relativePath(path: string): string {
  if (typeof path !== 'string') throw new WorkspacePathError(String(path), 'is not a string');
  if (path.includes('\0')) throw new WorkspacePathError(path, 'contains a NUL character');
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path) || path.startsWith('~/')) {
    throw new WorkspacePathError(path, OUTSIDE);
  }
  const segments: string[] = [];
  for (const segment of path.split(/[/\\]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) throw new WorkspacePathError(path, OUTSIDE);
      segments.pop();
    } else segments.push(segment);
  }
  return segments.join('/');
}

/** The error for a path that resolves out of the root through a link. */
export function outsideError(path: string): WorkspacePathError {
  return new WorkspacePathError(path, `${OUTSIDE}: a link in it points out of the workspace`);
}

/** The error for a path that names nothing. */
export function missingError(path: string): WorkspacePathError {
  return new WorkspacePathError(path, 'does not exist in the workspace (工作区中不存在)');
}

/** Joins a relative path's segments onto a root: `join('/workspace', 'a/b')` → `/workspace/a/b`. */
export function underRoot(root: string, relative: string): string {
  return relative === '' ? root : `${root}/${relative}`;
}
