import { Agent, defineTool, openaiCompatible, scriptedModel } from 'thinkflow';
import { z } from 'zod';

const weather = defineTool({
  name: 'weather',
  description: 'Current weather for a city.',
  input: z.object({ city: z.string().describe('City name, e.g. Paris') }),
  run: async ({ city }) => ({ city, tempC: 21, sky: 'clear' }),
});

// With OPENAI_API_KEY set this talks to a real model; without it, a scripted one.
const model = process.env.OPENAI_API_KEY
  ? openaiCompatible({ baseURL: 'https://api.openai.com/v1', apiKey: process.env.OPENAI_API_KEY, model: 'gpt-4o-mini' })
  : scriptedModel([
      { text: '', toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' }] },
      'It is 21 °C and clear in Paris.',
    ]);

const agent = new Agent({ model, tools: [weather], instructions: 'Answer in one sentence.', maxSteps: 5 });
const result = await agent.run('What is the weather in Paris?');
console.log(result.output); // It is 21 °C and clear in Paris.
