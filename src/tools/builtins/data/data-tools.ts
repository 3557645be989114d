import { assertPeers } from '../../../core/index.js';
import type { AnyTool } from '../../tool.js';
import type { BuiltinOptions } from '../builtin-options.js';
import { resolveBuiltinOptions } from '../shared/defaults.js';
import { aggregateDataTool } from './aggregate-data-tool.js';
import { createDataSession, dataQueryLimits } from './data-session.js';
import { describeDataTool } from './describe-data-tool.js';
import { queryDataTool } from './query-data-tool.js';

/**
 * The data kit: `describe_data`, `query_data` (one read-only SELECT) and `aggregate_data` over CSV,
 * Parquet and JSON files inside `root`, with DuckDB sandboxed to that folder and run in a child process
 * that stops any query over `dataMemoryBytes` (512 MiB) or `dataTimeoutMs` (30 s).
 *
 * @example
 * const agent = new Agent({ model, tools: dataTools({ root: './data' }) });
 */
export function dataTools(options: BuiltinOptions = {}): AnyTool[] {
  assertPeers('data');
  const { root, maxOutputChars } = resolveBuiltinOptions(options);
  const session = createDataSession(root, dataQueryLimits(options));
  return [
    describeDataTool(session, maxOutputChars),
    queryDataTool(session, maxOutputChars),
    aggregateDataTool(session, maxOutputChars),
  ];
}
