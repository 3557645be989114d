/** The AI SDK UI message stream (useChat). */
export { uiStreamRoute } from './ui-stream-route.js';
export { UiMessage, UiStreamBody } from './ui-stream-wire-schema.js';
