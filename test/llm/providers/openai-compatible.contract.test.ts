import { openaiCompatible } from '../../../src/index.js';
import { runModelContract } from '../model.contract.js';
import { startOpenAIServer } from './openai-server.js';

const server = await startOpenAIServer();

runModelContract({
  name: 'openaiCompatible',
  createModel({ replies, hang }) {
    server.push(...(hang ? [{ kind: 'hang' as const }] : replies));
    return openaiCompatible({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', model: 'gpt-4o-mini', maxRetries: 0 });
  },
  cleanup: () => server.close(),
});
