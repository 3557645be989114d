import type { Hono } from 'hono';
import { z } from 'zod';
import { apiError, currentScope, readBody } from '../http/index.js';
import type { RunService } from '../records/index.js';
import { startRefusal } from './run-routes.js';

/** A webhook trigger: POST /v1/hooks/:name starts `agent` with the request's payload. */
export interface HookConfig {
  agent: string;
  /** Turns the JSON payload into the run's input. Default: `payload.input` if a string, else the payload as JSON. */
  input?: (payload: unknown) => string;
  /**
   * The header naming each delivery, used as the Idempotency-Key when the request has none (GitHub's
   * `X-GitHub-Delivery`, Standard Webhooks' `webhook-id`): a sender's redelivery of the same payload
   * gets the first run back instead of starting another.
   */
  deliveryHeader?: string;
}

function defaultInput(payload: unknown): string {
  if (payload && typeof payload === 'object' && 'input' in payload && typeof payload.input === 'string') {
    return payload.input;
  }
  return JSON.stringify(payload);
}

/**
 * POST /v1/hooks/:name for each configured hook; answers 202 with the run it started. A hook's `input`
 * function that throws answers 400 without its message (it may be internal); `onError` gets the error.
 */
export function hookRoutes(
  app: Hono,
  runs: RunService,
  hooks: Record<string, HookConfig>,
  onError: (error: unknown) => void,
): void {
  app.post('/v1/hooks/:name', async (c) => {
    const name = c.req.param('name');
    const hook = Object.hasOwn(hooks, name) ? hooks[name] : undefined;
    if (!hook) return apiError(c, 'not_found', `No hook named "${name}".`);
    const body = await readBody(c, z.unknown());
    if (!body.ok) return body.response;
    let input: string;
    try {
      input = (hook.input ?? defaultInput)(body.value);
    } catch (error) {
      onError(error);
      return apiError(c, 'invalid_request', `Hook "${name}" could not turn the payload into a run input.`);
    }
    const scope = currentScope();
    if (scope && hook.deliveryHeader) scope.idempotencyHeader = hook.deliveryHeader;
    const started = await runs.start({ agent: hook.agent, input, source: 'hook' });
    if (!started.ok) return startRefusal(c, started, hook.agent);
    return c.json(started.run, 202, { Location: `/v1/runs/${started.run.id}` });
  });
}
