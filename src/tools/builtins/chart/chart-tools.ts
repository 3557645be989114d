import { assertPeers } from '../../../core/index.js';
import type { AnyTool } from '../../tool.js';
import type { BuiltinOptions } from '../builtin-options.js';
import { createDataSession, dataQueryLimits } from '../data/data-session.js';
import { resolveBuiltinOptions } from '../shared/defaults.js';
import { drawChartTool } from './draw-chart-tool.js';

/**
 * The chart kit: `draw_chart`, which reads data files inside `root` and writes SVG and PNG files
 * to `outDir` (default `<root>/charts`).
 *
 * @example
 * const agent = new Agent({ model, tools: [...dataTools({ root }), ...chartTools({ root })] });
 */
export function chartTools(options: BuiltinOptions = {}): AnyTool[] {
  assertPeers('chart');
  const { root, outDir, maxReadBytes } = resolveBuiltinOptions(options);
  const session = createDataSession(root, dataQueryLimits(options));
  return [drawChartTool({ session, root, outDir, maxReadBytes })];
}
