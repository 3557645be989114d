import type { Language, ProtocolName } from '../protocol.js';
import { keywordLabel } from './keywords.js';

/** One tool call in a worked example, with what the tool returned. */
export interface ExampleCall {
  thought?: string;
  tool: string;
  input: Record<string, unknown>;
  observation: string;
}

/**
 * A few-shot example: a worked question (its tool calls, then the answer), which each protocol
 * writes in its own reply format, or a string put in the prompt as written.
 */
export type FewShotExample = string | { question: string; calls?: ExampleCall[]; thought?: string; answer: string };

const WORDS: Record<Language, Record<'question' | 'thought' | 'call' | 'result' | 'answer' | 'user', string>> = {
  en: {
    question: 'Question: ',
    thought: keywordLabel('thought', 'en'),
    call: 'Call: ',
    result: 'Result: ',
    answer: 'Answer: ',
    user: 'User: ',
  },
  zh: {
    question: '问题：',
    thought: keywordLabel('thought', 'zh'),
    call: '调用：',
    result: '结果：',
    answer: '回答：',
    user: '用户：',
  },
};

const REACT: Record<Language, { action: string; input: string; observation: string; final: string }> = {
  en: reactLabels('en'),
  zh: reactLabels('zh'),
};

function reactLabels(language: Language): { action: string; input: string; observation: string; final: string } {
  return {
    action: keywordLabel('action', language),
    input: keywordLabel('action_input', language),
    observation: keywordLabel('observation', language),
    final: keywordLabel('final_answer', language),
  };
}

/**
 * One example in the protocol's own format, so the model sees exactly the replies it must write:
 * ReAct lines, JSON objects between observations, or (native tool calling, whose calls are not text)
 * a short transcript of the calls and results.
 *
 * @example
 * renderExample({ question: '15的平方加20除以4？', calls: [{ tool: 'calculator', input: { expression: '15**2 + 20/4' }, observation: '230' }], answer: '230' }, { protocol: 'react', language: 'zh' });
 */
export function renderExample(
  example: FewShotExample,
  options: { protocol: ProtocolName; language: Language },
): string {
  if (typeof example === 'string') return example;
  const w = WORDS[options.language];
  const calls = example.calls ?? [];
  const lines: string[] = [];
  if (options.protocol === 'react') {
    const k = REACT[options.language];
    lines.push(`${w.question}${example.question}`);
    for (const c of calls) {
      if (c.thought) lines.push(`${w.thought}${c.thought}`);
      lines.push(`${k.action}${c.tool}`, `${k.input}${JSON.stringify(c.input)}`, `${k.observation}${c.observation}`);
    }
    if (example.thought) lines.push(`${w.thought}${example.thought}`);
    lines.push(`${k.final}${example.answer}`);
  } else if (options.protocol === 'json') {
    const k = REACT[options.language];
    lines.push(`${w.user}${example.question}`);
    for (const c of calls) {
      const step = { ...(c.thought ? { thought: c.thought } : {}), action: c.tool, action_input: c.input };
      lines.push(JSON.stringify(step), `${w.user}${k.observation}${c.observation}`);
    }
    const final = {
      ...(example.thought ? { thought: example.thought } : {}),
      action: 'final_answer',
      action_input: example.answer,
    };
    lines.push(JSON.stringify(final));
  } else {
    lines.push(`${w.user}${example.question}`);
    for (const c of calls) lines.push(`${w.call}${c.tool}(${JSON.stringify(c.input)})`, `${w.result}${c.observation}`);
    lines.push(`${w.answer}${example.answer}`);
  }
  return lines.join('\n');
}
