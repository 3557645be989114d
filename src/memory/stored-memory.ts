import { StoreError } from '../core/index.js';
import { Memory } from './memory-store.js';

/**
 * A memory read back from a store, checked: a row that no longer fits (edited by hand, or written under
 * other rules) is a `StoreError` that names the memory, where it is and how to delete it, not a bare zod error.
 */
export function storedMemory(
  fields: Record<string, unknown> & { id: string },
  context: { where: string; remove: string },
): Memory {
  const parsed = Memory.safeParse(fields);
  if (!parsed.success) {
    throw new StoreError({
      message: `Memory ${fields.id} in ${context.where} is unreadable (${parsed.error.message}). Delete it with \`${context.remove}\`.`,
    });
  }
  return parsed.data;
}
