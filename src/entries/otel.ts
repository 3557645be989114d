/**
 * `thinkflow/otel`: agent events as OpenTelemetry spans, and online scores (`otelScoreExporter`). Needs the optional peer `@opentelemetry/api`
 * (the one your tracer provider uses).
 */
export {
  eventsToSpans,
  type OtelExporter,
  type OtelExporterOptions,
  otelExporter,
  otelScoreExporter,
  type ScoresToExport,
} from '../trace/index.js';
