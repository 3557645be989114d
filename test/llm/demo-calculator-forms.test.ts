import { describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { demoModel } from '../../src/llm/index.js';
import { calculatorTool, demoSearchTool, demoWeatherTool } from '../../src/tools/index.js';
import { CALCULATOR_FORMS, CALCULATOR_SENTENCES } from '../tools/builtins/calculator-forms.js';

/** The demo's answer to a question, with the tools `thinkflow run --model demo` gives it. */
async function demo(question: string): Promise<string> {
  const agent = new Agent({ model: demoModel(), tools: [calculatorTool, demoSearchTool, demoWeatherTool] });
  return (await agent.run(question)).output;
}

// Every form the calculator reads, alone and inside a question, in Chinese and in English.
const QUESTIONS: [question: string, value: string][] = [
  ['(3+5)×2 是多少', '16'],
  ['（2+3）×4 等于几？', '20'],
  ...CALCULATOR_SENTENCES,
  ...CALCULATOR_FORMS.flatMap(([form, value]): [string, string][] => {
    const bare = form.replace(/\s*=\s*$/, '');
    return [
      [form, value],
      [`${bare} 是多少`, value],
      [`What is ${bare}?`, value],
    ];
  }),
];

describe('the demo model reads every arithmetic form the calculator reads', () => {
  it.each(QUESTIONS)('answers %s with %s', async (question, value) => {
    const answer = await demo(question);
    expect(answer).not.toMatch(/I don't know|我不知道/);
    expect(answer).toContain(`= ${value}`);
  });
});
