/** OpenAI Chat Completions, Responses and models, and the turns they share. */
export { ChatCompletionBody, chatCompletionsRoute } from './chat-completions-route.js';
export { modelsRoute } from './models-route.js';
export { responsesRoute } from './responses-route.js';
export { ResponsesBody } from './responses-wire.js';
