import type { ModelRequest } from '../../core/index.js';
import type { LoopConfig } from '../run/index.js';
import type { PreparedStep } from './prepare-step.js';

/**
 * The model request of a prepared step: its messages, its tools (in the request for the native protocol,
 * in the prompt for the text ones), the protocol's stop sequences, the output format and the sampling options.
 */
export function stepRequest(
  config: LoopConfig,
  prepared: PreparedStep,
  run: { stop: string[] | undefined; signal: AbortSignal },
): ModelRequest {
  const { messages, tools, specs } = prepared;
  const { options } = config;
  return {
    messages,
    tools,
    promptTools: tools ? undefined : specs,
    stop: run.stop,
    protocol: config.protocol.name,
    responseFormat: config.responseFormat,
    // Fields, not `...sampling(options)`: a spread into the request makes every read of it slow (docs/loop.md).
    temperature: options.temperature,
    topP: options.topP,
    signal: run.signal,
  };
}
