export { redactedJson, redactSecrets, redactText, SECRET_SHAPES } from '../core/index.js';
export { cacheKey } from './cache-key.js';
export { type CacheStore, memoryCacheStore } from './cache-store.js';
export { type CachedModelOptions, cachedModel } from './cached-model.js';
export { type ChaosCorruption, CORRUPTIONS } from './chaos-corruptions.js';
export {
  CHAOS_KINDS,
  type ChaosKind,
  type ChaosModel,
  type ChaosModelOptions,
  type ChaosRecord,
  chaosModel,
} from './chaos-model.js';
export { compareRequest } from './compare-request.js';
export type { Divergence } from './divergence.js';
export { escapeHtml } from './escape-html.js';
export {
  type CheckResult,
  caseReport,
  EvalCase,
  type EvalCaseReport,
  EvalCheck,
  type EvalPredicate,
  type EvalProgress,
  type EvalReport,
  type EvalRunReport,
  EvalSuite,
  type FormatEvalTableOptions,
  formatEvalTable,
  formatProgress,
  importPredicate,
  lastNumber,
  loadSuite,
  parseSuite,
  type RunChecksOptions,
  type RunSuiteOptions,
  renderEvalHtml,
  runChecks,
  runSuite,
  toolsCalled,
} from './eval/index.js';
export { firstDivergence } from './first-divergence.js';
export { formatMs } from './format-ms.js';
export { cacheShare, usageDetail } from './format-usage.js';
export { mulberry32 } from './mulberry32.js';
export { eventsToSpans, type OtelExporter, type OtelExporterOptions, otelExporter } from './otel-exporter.js';
export { costOf, PRICES_AS_OF, type Price, priceOf, registerPrice } from './prices.js';
export { type RenderHtmlOptions, renderHtml } from './render-html.js';
export { type RenderTimelineOptions, renderTimeline } from './render-timeline.js';
export { type ReplayModel, type ReplayModelOptions, replayModel } from './replay-model.js';
export { type ReplayToolsOptions, replayTools } from './replay-tools.js';
export { SqliteCacheStore } from './sqlite-cache-store.js';
export { stableJson } from './stable-json.js';
export {
  summarizeTrace,
  type TraceModelCall,
  type TraceStep,
  type TraceSummary,
  type TraceToolCall,
} from './summarize-trace.js';
export { parseTrace, readTrace, TraceLine } from './trace-line.js';
export { createTraceWriter, type TraceWriter } from './trace-writer.js';
export { withCache } from './with-cache.js';
