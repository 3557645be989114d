export { redactedJson, redactSecrets, redactText, SECRET_SHAPES } from '../core/index.js';
export { compareRequest, type Divergence } from './replay/compare-request.js';
export { firstDivergence } from './replay/first-divergence.js';
export { type ReplayModel, type ReplayModelOptions, replayModel } from './replay/replay-model.js';
export { type ReplayToolsOptions, replayTools } from './replay/replay-tools.js';
export { parseTrace, readTrace, TraceLine } from './trace-line.js';
export { traceRuns } from './trace-runs.js';
export { createTraceWriter, type TraceWriter } from './trace-writer.js';
export { escapeHtml } from './view/html-assets.js';
export { eventsToSpans, type OtelExporter, type OtelExporterOptions, otelExporter } from './view/otel-exporter.js';
export { globalOtelScoreExporter, otelScoreExporter, type ScoresToExport } from './view/otel-scores.js';
export { type RenderHtmlOptions, renderHtml } from './view/render-html.js';
export { type RenderTimelineOptions, renderTimeline } from './view/render-timeline.js';
export {
  summarizeTrace,
  type TraceModelCall,
  type TraceStep,
  type TraceSummary,
  type TraceToolCall,
} from './view/summarize-trace.js';
export {
  summarizeWorkflowTrace,
  type WorkflowStepStatus,
  type WorkflowTracePass,
  type WorkflowTraceStep,
  type WorkflowTraceSummary,
} from './view/summarize-workflow.js';
