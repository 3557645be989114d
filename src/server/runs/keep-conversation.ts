import type { Message } from '../../core/index.js';
import type { SessionStore } from '../../memory/index.js';
import type { RunService } from '../records/index.js';

/** One turn of a conversation a protocol client holds (a chat id, an AG-UI thread, an A2A context). */
export interface ConversationTurn {
  runs: Pick<RunService, 'wait'>;
  sessions: SessionStore;
  sessionId: string;
  /** The turns before this one, as the run got them. */
  history: Message[];
  input: string;
  runId: string;
  onError: (error: unknown) => void;
}

/**
 * Once the run ends, stores the conversation as the client holds it, with this turn's answer, under
 * the session id: `GET /v1/sessions/:id` shows it, and a client that sends only its new message
 * gets it back as history. Not awaited: no request waits for it.
 */
export function keepConversation(turn: ConversationTurn): void {
  const { runs, sessions, sessionId, history, input, runId } = turn;
  void runs
    .wait(runId)
    .then(async (ended) => {
      const output = ended?.result?.output;
      const messages: Message[] = [...history, { role: 'user', content: input }];
      if (output) messages.push({ role: 'assistant', content: output });
      await sessions.reset(sessionId);
      await sessions.append(sessionId, messages);
    })
    .catch(turn.onError);
}
