import { errorMessage } from '../../core/index.js';
import type { EngineClient } from '../engine-client.js';

/** Where Restate's APIs are. */
export interface RestateClientOptions {
  /** The ingress, e.g. `http://127.0.0.1:8080`. */
  ingress: string;
  /** The admin API, e.g. `http://127.0.0.1:9070` (cancel). */
  admin: string;
  /** Headers for both (an API key for Restate Cloud). */
  headers?: Record<string, string>;
}

/**
 * thinkflow's server steering runs on Restate over its HTTP APIs (no SDK): a start is a one-way call to
 * the agent service's `run` handler (the agent's name is the service's), an answer resolves the awakeable,
 * a cancel goes through the admin API. Pass it to `engineRuns` (`thinkflow/server`).
 */
export function restateClient(options: RestateClientOptions): EngineClient {
  const ingress = options.ingress.replace(/\/$/, '');
  const admin = options.admin.replace(/\/$/, '');
  const call = async (url: string, init: RequestInit) => {
    let response: Response;
    try {
      response = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...options.headers } });
    } catch (error) {
      throw new Error(`Restate did not answer at ${url}: ${errorMessage(error)}`);
    }
    if (!response.ok) throw new Error(`Restate refused ${url}: ${response.status} ${await response.text()}`);
    return response;
  };
  return {
    engine: 'restate',
    async start({ agent, input, history }) {
      const body = JSON.stringify(history?.length ? { input, history } : { input });
      const response = await call(`${ingress}/${encodeURIComponent(agent)}/run/send`, { method: 'POST', body });
      return ((await response.json()) as { invocationId: string }).invocationId;
    },
    async answer(_runId, answerId, answer) {
      const url = `${ingress}/restate/awakeables/${encodeURIComponent(answerId)}/resolve`;
      await call(url, { method: 'POST', body: JSON.stringify(answer) });
    },
    async cancel(runId) {
      await call(`${admin}/invocations/${encodeURIComponent(runId)}/cancel`, { method: 'PATCH' });
    },
  };
}
