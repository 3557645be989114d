import type { Protocol } from '../protocol.js';
import { textProtocol } from '../shared/text-protocol.js';
import { parseJsonAction } from './parse-json-action.js';
import { jsonPrompt } from './prompt.js';

/**
 * The JSON protocol: the prompt lists tools with their JSON Schemas and asks for
 * `{"thought", "action", "action_input"}`; replies are read by {@link parseJsonAction}, and tool
 * results come back as `Observation: …`.
 */
export const jsonProtocol: Protocol = textProtocol({ name: 'json', templates: jsonPrompt, parse: parseJsonAction });
