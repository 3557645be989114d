import type { AnyTool } from '../tool.js';
import type { BuiltinOptions } from './builtin-options.js';
import { calculatorTool } from './calculator.js';
import { chartTools } from './chart/chart-tools.js';
import { dataTools } from './data/data-tools.js';
import { datetimeTools } from './datetime.js';
import { demoTools } from './demo-tools.js';
import { fileTools } from './files/file-tools.js';
import { httpTools } from './http/http-tools.js';
import { searchTools } from './search/search-tools.js';
import { unitTools } from './units.js';

// The kits that need Node's file system, sockets or child processes; index.ts has the portable ones.
export { chartTools } from './chart/chart-tools.js';
export { dataTools } from './data/data-tools.js';
export { fileTools } from './files/file-tools.js';
export { isInside, type ResolvedPath, resolveInRoot } from './files/resolve-in-root.js';
export { addressProblem } from './http/classify-address.js';
export { type HttpGetOptions, httpGetTool } from './http/http-get-tool.js';
export { httpTools } from './http/http-tools.js';
export { type SearchDocumentsOptions, searchDocumentsTool } from './search/search-documents-tool.js';
export { searchTools } from './search/search-tools.js';

/**
 * Every built-in tool kit by the name the CLI (`--tools files,data`) and a YAML/JSON config (`tools: [files]`)
 * enable it with: the one table both read. All are off by default; each factory returns the tools of its
 * kit, built from the options. `demo` is the demo model's kit: the calculator and the mock-data tools.
 */
export const builtinTools: Record<string, (options?: BuiltinOptions) => AnyTool[]> = {
  demo: () => [calculatorTool, ...demoTools],
  calculator: () => [calculatorTool],
  files: fileTools,
  data: dataTools,
  http: httpTools,
  chart: chartTools,
  search: searchTools,
  datetime: datetimeTools,
  units: unitTools,
};
