import type { Hono } from 'hono';
import { z } from 'zod';
import type { SessionStore } from '../../memory/index.js';
import { IDEMPOTENCY_HEADER, sessionKey } from '../caller/index.js';
import { apiError, readBody } from '../http/index.js';
import type { RunService } from '../records/index.js';
import { startRefusal } from './run-routes.js';

/** Body of POST /v1/sessions/:id/runs. */
const StartSessionRunBody = z.object({
  agent: z.string().min(1, 'agent must name a served agent'),
  input: z.string().min(1, 'input must be a non-empty string'),
});
export type StartSessionRunBody = z.infer<typeof StartSessionRunBody>;

/** Session ids a client may choose: short, and safe in a URL and a log line. */
const SESSION_ID = /^[\w.:-]{1,128}$/;

/** What the session routes work with. */
export interface SessionRoutesContext {
  runs: RunService;
  sessions: SessionStore;
  /** Where a failure to store an answer goes (no request is waiting for it). */
  onError: (error: unknown) => void;
}

/**
 * Conversations kept in the session store: `POST /v1/sessions/:id/runs` starts a run of an agent with
 * the session's messages as its history, stores the question at once and the answer when the run ends;
 * `GET /v1/sessions/:id` returns the messages and the run still answering; `DELETE` forgets them.
 * One run answers a session at a time (409 otherwise), so each turn sees every earlier one. That is
 * tracked in this process: two servers sharing one session store do not see each other's runs.
 */
export function sessionRoutes(app: Hono, { runs, sessions, onError }: SessionRoutesContext): void {
  /**
   * Stored session key (the caller's own, `sessionKey`) → the run answering it now ('' while that run
   * is being started) and the Idempotency-Key that started it, so a retry of that request gets its run.
   */
  const answering = new Map<string, { runId: string; idempotencyKey?: string }>();

  app.get('/v1/sessions/:id', async (c) => {
    const id = c.req.param('id');
    if (!SESSION_ID.test(id)) return badId(c);
    return c.json({
      id,
      messages: await sessions.load(id),
      running: answering.get(sessionKey(id))?.runId || undefined,
    });
  });

  app.delete('/v1/sessions/:id', async (c) => {
    const id = c.req.param('id');
    if (!SESSION_ID.test(id)) return badId(c);
    const current = answering.get(sessionKey(id));
    if (current) return busy(c, id, current.runId);
    await sessions.reset(id);
    return c.json({ id, messages: [] });
  });

  app.post('/v1/sessions/:id/runs', async (c) => {
    const id = c.req.param('id');
    if (!SESSION_ID.test(id)) return badId(c);
    const body = await readBody(c, StartSessionRunBody);
    if (!body.ok) return body.response;
    const key = sessionKey(id);
    const idempotencyKey = c.req.header(IDEMPOTENCY_HEADER);
    const current = answering.get(key);
    // A retry of the request answering the session now gets that run (start replays it); others wait.
    if (current && !(current.runId && idempotencyKey !== undefined && current.idempotencyKey === idempotencyKey)) {
      return busy(c, id, current.runId);
    }
    const { agent, input } = body.value;
    if (!current) answering.set(key, { runId: '' }); // taken while the history loads, so a second request waits its turn
    let started: Awaited<ReturnType<RunService['start']>>;
    try {
      const history = await sessions.load(id);
      started = await runs.start({ agent, input, history, source: 'api', thread: id });
      // A replayed start stored its question the first time.
      if (started.ok && !started.replayed) await sessions.append(id, [{ role: 'user', content: input }]);
    } catch (error) {
      if (!current) answering.delete(key);
      throw error;
    }
    if (!started.ok) {
      if (!current) answering.delete(key);
      return startRefusal(c, started, agent);
    }
    const runId = started.run.id;
    if (started.replayed) {
      // The first request stored the turn and waits for its answer; this one only hands its run back.
      if (!current) answering.delete(key);
      return c.json(started.run, 202, { Location: `/v1/runs/${runId}` });
    }
    answering.set(key, { runId, idempotencyKey });
    void runs
      .wait(runId)
      .then((ended) => {
        const output = ended?.result?.output;
        // A run that ended without an answer leaves the question alone in the session, as it was.
        return output ? sessions.append(id, [{ role: 'assistant', content: output }]) : undefined;
      })
      .catch(onError)
      .finally(() => answering.delete(key));
    return c.json(started.run, 202, { Location: `/v1/runs/${runId}` });
  });
}

function badId(c: Parameters<typeof apiError>[0]): Response {
  return apiError(c, 'invalid_request', 'A session id is 1 to 128 letters, digits, "_", ".", ":" or "-".');
}

function busy(c: Parameters<typeof apiError>[0], id: string, runId: string): Response {
  const which = runId ? `run "${runId}"` : 'another run';
  return apiError(c, 'conflict', `Session "${id}" is still being answered by ${which}; wait for it to end.`);
}
