/**
 * `thinkflow/otel`: agent events as OpenTelemetry spans. Needs the optional peer `@opentelemetry/api`
 * (the one your tracer provider uses).
 */
export { eventsToSpans, type OtelExporter, type OtelExporterOptions, otelExporter } from '../trace/index.js';
