export { costOf, type Price, priceOf, registerPrice } from './prices.js';
export { redactSecrets, redactText } from './redact-secrets.js';
export { parseTrace, readTrace, TraceLine } from './trace-line.js';
export { createTraceWriter, type TraceWriter } from './trace-writer.js';
