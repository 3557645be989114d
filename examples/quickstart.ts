import { Agent, calculatorTool, scriptedModel } from 'thinkflow';

// A scripted model stands in for an LLM: it asks for the calculator once, then answers.
const model = scriptedModel([
  { text: '', toolCalls: [{ id: 'call_1', name: 'calculator', arguments: '{"expression":"23 * 7 + 4"}' }] },
  'The result is 165.',
]);
const agent = new Agent({ model, tools: [calculatorTool] });
const result = await agent.run('What is 23 * 7 + 4?', { onEvent: (e) => console.log(e.type) });
console.log(result.status, result.output, result.steps[0].toolCalls[0].output);
