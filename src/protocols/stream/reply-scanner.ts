import { createJsonScanner } from './json-reply-scanner.js';
import { createNativeScanner } from './native-reply-scanner.js';
import { createReactScanner } from './react-reply-scanner.js';
import type { ReplyScanner } from './reply-markers.js';

export type { ReplyScanner } from './reply-markers.js';

/**
 * The scanner that reads a model call's streamed reply into answer text for a run's protocol
 * (`tools`: the agent's tool names, which a native reply may call as text). Undefined for a protocol
 * it does not know: that run's answer goes out whole, at `final`.
 */
export function createReplyScanner(protocol: string, tools: readonly string[]): ReplyScanner | undefined {
  switch (protocol) {
    case 'native':
      return createNativeScanner(tools);
    case 'react':
      return createReactScanner();
    case 'json':
      return createJsonScanner();
    default:
      return undefined;
  }
}
