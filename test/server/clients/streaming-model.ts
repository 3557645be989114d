import { Agent } from '../../../src/agent/index.js';
import { openaiCompatible } from '../../../src/llm/index.js';
import { openaiStreamPieces } from '../../llm/providers/openai-server.js';
import { startWireServer, type WireServer } from '../../llm/providers/wire-server.js';

/** The answer the streaming model gives, and the pieces it streams it in (200 ms apart). */
export const LIVE_ANSWER = 'The answer is 42.';
const DELTAS = ['The ', 'answer ', 'is ', '42.'];
/** A ReAct reply: its scaffolding, then the same answer in the same four deltas. */
const REACT_DELTAS = [`Thought: I know this one.\nFinal Answer: ${DELTAS[0]}`, ...DELTAS.slice(1)];
const PAUSE_MS = 200;

/** A local OpenAI-compatible server whose every reply streams four deltas 200 ms apart. */
export interface StreamingModel {
  url: string;
  /** How many of the current reply's four deltas are written so far. */
  readonly sent: number;
  /** A native agent and a ReAct agent on this model. */
  agents: { 'live-native': () => Agent; 'live-react': () => Agent };
  close(): Promise<void>;
}

export async function startStreamingModel(): Promise<StreamingModel> {
  let sent = 0;
  const wire: WireServer = await startWireServer((_response, request) => {
    const messages = JSON.stringify(request.body.messages ?? '');
    // The ReAct agent's system prompt asks for `Final Answer:`; the native agent's does not.
    const deltas = messages.includes('Final Answer') ? REACT_DELTAS : DELTAS;
    const usage = { promptTokens: 20, completionTokens: 8 };
    return {
      kind: 'stream',
      pauseMs: PAUSE_MS,
      // Piece 0 is the role chunk; pieces 1-4 are the deltas.
      pieces: openaiStreamPieces({ text: deltas.join(''), usage }, { deltas, usage: true }),
      onPiece: (index) => {
        sent = Math.min(index, deltas.length);
      },
    };
  });
  // Every request gets the scripted reply: the queue holds one per run the tests start, and more.
  for (let i = 0; i < 200; i++) wire.push({ text: '' });
  const model = () => openaiCompatible({ baseURL: `${wire.url}/v1`, model: 'live', apiKey: 'none' });
  return {
    url: wire.url,
    get sent() {
      return sent;
    },
    agents: {
      'live-native': () => new Agent({ name: 'live-native', model: model() }),
      'live-react': () => new Agent({ name: 'live-react', protocol: 'react', model: model() }),
    },
    close: () => wire.close(),
  };
}
