import type { AnyTool } from '../tool.js';
import type { BuiltinOptions } from './builtin-options.js';
import { fileTools } from './files/file-tools.js';

export type { BuiltinOptions } from './builtin-options.js';

/**
 * Every built-in tool kit by the name the CLI enables it with (`--tools files,data`).
 * All are off by default; each factory returns the tools of its kit, built from the options.
 */
export const builtinTools: Record<string, (options?: BuiltinOptions) => AnyTool[]> = {
  files: fileTools,
};
