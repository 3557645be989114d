import type { AnyTool } from '../../tool.js';
import type { BuiltinOptions } from '../builtin-options.js';
import { resolveBuiltinOptions } from '../shared/defaults.js';
import { searchDocumentsTool } from './search-documents-tool.js';

/** The search kit (`--tools search`): `search_documents` over the root folder. Add `webSearchTool(provider)` yourself. */
export function searchTools(options: BuiltinOptions = {}): AnyTool[] {
  const { root, maxReadBytes, maxOutputChars } = resolveBuiltinOptions(options);
  return [searchDocumentsTool({ root, maxBytesPerFile: maxReadBytes, maxOutputChars })];
}
