/** AG-UI (CopilotKit and other AG-UI clients). */
export { agUiRoute } from './ag-ui-route.js';
export { RunAgentInput } from './ag-ui-wire-schema.js';
