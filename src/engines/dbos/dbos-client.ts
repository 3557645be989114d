import type { DBOSClient } from '@dbos-inc/dbos-sdk';
import type { EngineClient } from '../engine-client.js';

/**
 * thinkflow's server steering runs on DBOS through a `DBOSClient` on the same system database: a start
 * enqueues the agent's workflow on its queue (`thinkflow-<agent>`), an answer is `send` on the wait's
 * topic, a cancel is `cancelWorkflow`. Pass it to `engineRuns` (`thinkflow/server`).
 *
 * @example
 * const client = await DBOSClient.create({ systemDatabaseUrl: process.env.DATABASE_URL });
 * createApp({ runs: engineRuns({ store, agents: ['support'], client: dbosClient(client) }) });
 */
export function dbosClient(client: DBOSClient): EngineClient {
  return {
    engine: 'dbos',
    async start({ agent, input, history }) {
      const workflowID = crypto.randomUUID();
      const request = history?.length ? { input, history } : { input };
      await client.enqueue(
        { queueName: `thinkflow-${agent}`, workflowName: agent, workflowID, queuePartitionKey: workflowID },
        request,
      );
      return workflowID;
    },
    answer: (runId, answerId, answer) => client.send(runId, answer, answerId),
    cancel: (runId) => client.cancelWorkflow(runId),
  };
}
