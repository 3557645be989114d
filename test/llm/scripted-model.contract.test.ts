import { scriptedModel } from '../../src/index.js';
import { runModelContract } from './model.contract.js';

runModelContract({
  name: 'scriptedModel',
  expectsUsage: false,
  createModel: ({ replies, hang }) => scriptedModel(replies, hang ? { delayMs: 60_000 } : {}),
});
