import type { AnyTool } from '../tool.js';
import type { BuiltinOptions } from './builtin-options.js';
import { calculatorTool } from './calculator.js';
import { chartTools } from './chart/chart-tools.js';
import { dataTools } from './data/data-tools.js';
import { fileTools } from './files/file-tools.js';
import { httpTools } from './http/http-tools.js';

export type { BuiltinOptions } from './builtin-options.js';
export { calculate, calculatorTool } from './calculator.js';
export { demoSearchTool, demoWeatherTool } from './demo-tools.js';

/**
 * Every built-in tool kit by the name the CLI enables it with (`--tools files,data`).
 * All are off by default; each factory returns the tools of its kit, built from the options.
 */
export const builtinTools: Record<string, (options?: BuiltinOptions) => AnyTool[]> = {
  calculator: () => [calculatorTool],
  files: fileTools,
  data: dataTools,
  http: httpTools,
  chart: chartTools,
};
