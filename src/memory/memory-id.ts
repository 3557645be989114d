import { randomBytes } from 'node:crypto';

/** A short random memory id, easy to type in `thinkflow memory rm`. */
export function memoryId(): string {
  return `mem_${randomBytes(8).toString('hex')}`;
}
