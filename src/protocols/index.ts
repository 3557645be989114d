export type { Language, PromptContext, Protocol, ProtocolName, ReadReply, ReadToolCall } from './protocol.js';
