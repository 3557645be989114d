import type { Context, Hono } from 'hono';
import { A2A_ERRORS } from '../../../tools/index.js';
import { apiError } from '../../http/index.js';
import { unknownAgent } from '../../routes/index.js';
import { agentCard } from './a2a-card.js';
import { type A2aContext, type A2aRouteContext, a2aTaskBook, rpcError } from './a2a-context.js';
import { answerRpc } from './a2a-rpc.js';

/**
 * The A2A protocol, JSON-RPC binding, v1.0 (`SendMessage`, `SendStreamingMessage`, `GetTask`,
 * `CancelTask`: what `@a2a-js/sdk` 1.x speaks by default) and v0.3 (the method names below) on one
 * endpoint: each agent is an A2A agent at `/a2a/:name`, its card at
 * `/a2a/:name/.well-known/agent-card.json` (and `/.well-known/agent-card.json` when the server has
 * one agent). `message/send` starts a task (a thinkflow run; the task id is the run id) and, unless
 * `configuration.blocking` is false, answers once it completes or needs input; `message/stream`
 * streams status and artifact updates (the answer text as it comes, then the final answer);
 * `tasks/get` and `tasks/cancel` read and stop it. A call that needs approval, or an `ask_user`
 * question, puts the task in `input-required` with the question as its status message; a message
 * on the same `taskId` answers it (for approvals "yes"/"no" or a data part `{ approved }`).
 */
/**
 * The 413 of an A2A endpoint: a JSON-RPC error (-32600, Invalid Request, with id null: the request was
 * not read), since an A2A client reads every answer of the endpoint as JSON-RPC.
 */
export function a2aTooLarge(c: Context, message: string): Response {
  return c.json({ jsonrpc: '2.0', id: null, error: rpcError(A2A_ERRORS.invalidRequest, message) }, 413);
}

export function a2aRoutes(app: Hono, route: A2aRouteContext): void {
  const ctx: A2aContext = { ...route, book: a2aTaskBook() };
  const { runs } = ctx;
  const discover = (c: Context, name: string) =>
    unknownAgent(c, runs, name) ?? c.json(agentCard(c, name, ctx.authRequired));

  app.get('/.well-known/agent-card.json', (c) => {
    const names = runs.agentNames();
    if (names.length !== 1) {
      return apiError(
        c,
        'not_found',
        `This server has ${names.length} agents; read /a2a/<name>/.well-known/agent-card.json (${names.join(', ')}).`,
      );
    }
    return discover(c, names[0]);
  });
  app.get('/a2a/:name/.well-known/agent-card.json', (c) => discover(c, c.req.param('name')));
  app.post('/a2a/:name', async (c) => {
    const agent = c.req.param('name');
    return unknownAgent(c, runs, agent) ?? answerRpc(ctx, c, agent);
  });
}
