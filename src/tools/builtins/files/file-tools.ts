import type { AnyTool } from '../../tool.js';
import type { BuiltinOptions } from '../builtin-options.js';
import { resolveBuiltinOptions } from '../shared/defaults.js';
import { deleteFileTool } from './delete-file-tool.js';
import { listFilesTool } from './list-files-tool.js';
import { moveFileTool } from './move-file-tool.js';
import { readFileTool } from './read-file-tool.js';
import { writeFileTool } from './write-file-tool.js';

/**
 * The files kit: `list_files` and `read_file`, plus `write_file`, `move_file` and `delete_file` when
 * `allowWrite` is set (those three need approval). Every path is confined to `root` (default: cwd).
 *
 * @example
 * const agent = new Agent({ model, tools: fileTools({ root: './workspace', allowWrite: true }) });
 */
export function fileTools(options: BuiltinOptions = {}): AnyTool[] {
  const { root, allowWrite, maxReadBytes } = resolveBuiltinOptions(options);
  const tools: AnyTool[] = [listFilesTool(root), readFileTool(root, maxReadBytes)];
  if (allowWrite) tools.push(writeFileTool(root), moveFileTool(root), deleteFileTool(root));
  return tools;
}
