// One step: prepare it, ask the model, read the next step, repair, reflect, summarize, and the memory hooks.
export { announceQuestions } from './announce-questions.js';
export { askModel, modelAnswered, startModelCall } from './ask-model.js';
export { bestEffortAnswer } from './best-effort-answer.js';
export { contextWindowFor } from './context-window-for.js';
export { countRepair } from './count-repair.js';
export { type FirstRequest, firstRequest, promptHead } from './first-request.js';
export { journalQuestions } from './journal-questions.js';
export { recallFor, sessionTurn, storeOutcome } from './memory-hooks.js';
export { newStep } from './new-step.js';
export { nextStep } from './next-step.js';
export { outputResponseFormat, outputSchemaBlock } from './output-schema-block.js';
export { prepareStep, stepState, systemMessage } from './prepare-step.js';
export { questionMessage } from './question-message.js';
export { reflect } from './reflect.js';
export { stepRequest } from './step-request.js';
export { stepLimit, stopWhen } from './stop-when.js';
export { summarizeWithModel } from './summarize-with-model.js';
export { systemPromptFor } from './system-prompt-cache.js';
