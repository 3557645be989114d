import type { Protocol } from '../protocol.js';
import { textProtocol } from '../shared/text-protocol.js';
import { parseReAct } from './parse-react.js';
import { reactPrompt } from './prompt.js';

/**
 * The ReAct protocol: tools and the `Thought / Action / Action Input / Observation / Final Answer`
 * format are written into the system prompt (Chinese keywords when the language is `zh`, both always
 * accepted), replies are read by {@link parseReAct}, and tool results come back as `Observation: …`.
 */
export const reactProtocol: Protocol = textProtocol({ name: 'react', templates: reactPrompt, parse: parseReAct });
