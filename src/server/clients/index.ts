/** Client protocols, one folder each (route and wire schema): OpenAI, AI SDK UI stream, AG-UI, A2A. */
export { a2aRoutes, a2aTooLarge } from './a2a/index.js';
export { agUiRoute, RunAgentInput } from './ag-ui/index.js';
export {
  ChatCompletionBody,
  chatCompletionsRoute,
  modelsRoute,
  ResponsesBody,
  responsesRoute,
} from './openai/index.js';
export { UiMessage, UiStreamBody, uiStreamRoute } from './ui-stream/index.js';
