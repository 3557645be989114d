/**
 * `thinkflow/trace`: a run's events as a JSONL trace, read back (run by run: `traceRuns`), summarized, rendered (terminal timeline,
 * HTML page), compared (first divergence) and replayed (`replayModel`, `replayTools`), with secrets
 * redacted. OpenTelemetry spans are in `thinkflow/otel`.
 */
export {
  createTraceWriter,
  type Divergence,
  firstDivergence,
  parseTrace,
  type RenderHtmlOptions,
  type RenderTimelineOptions,
  type ReplayModel,
  type ReplayModelOptions,
  type ReplayToolsOptions,
  readTrace,
  redactSecrets,
  redactText,
  renderHtml,
  renderTimeline,
  replayModel,
  replayTools,
  SECRET_SHAPES,
  summarizeTrace,
  summarizeWorkflowTrace,
  TraceLine,
  type TraceSummary,
  type TraceWriter,
  traceRuns,
  type WorkflowStepStatus,
  type WorkflowTracePass,
  type WorkflowTraceStep,
  type WorkflowTraceSummary,
} from '../trace/index.js';
