import type { PromptTemplates } from '../shared/prompt-template.js';

/**
 * The native protocol's prompt text, in English and Chinese. Tools travel in the request's `tools`
 * field, so the system prompt does not list them.
 */
export const nativePrompt: PromptTemplates = {
  en: {
    defaultInstructions: 'You are a helpful assistant. Solve the task step by step, using tools when they help.',
    toolsHeading: '',
    argumentsLabel: 'arguments (JSON Schema)',
    format: 'Call tools when you need them. When you can answer, reply with the answer as plain text.',
    formatNoTools: '',
    examplesHeading: 'Examples:',
    contextHeading: 'Context:',
    correction:
      'Your last reply could not be used: {reason}\nCall a tool with valid arguments, or reply with your answer.',
    finalAnswerRequest:
      'You have reached the step limit. Do not call any more tools. Reply now with your best final answer as plain text.',
    observationPrefix: '',
    example: `User: What is 12% of 250?
Assistant: (calls calculator with {"expression": "0.12 * 250"})
Tool: 30
Assistant: 12% of 250 is 30.`,
  },
  zh: {
    defaultInstructions: '你是一个乐于助人的助手。请一步一步地解决任务，需要时使用工具。',
    toolsHeading: '',
    argumentsLabel: '参数（JSON Schema）',
    format: '需要时调用工具。能够回答时，直接用纯文本给出答案。',
    formatNoTools: '',
    examplesHeading: '示例：',
    contextHeading: '背景信息：',
    correction: '无法使用你上一次的回复：{reason}\n请用正确的参数调用工具，或者直接给出答案。',
    finalAnswerRequest: '已达到步数上限。不要再调用任何工具，现在用纯文本给出你的最佳答案。',
    observationPrefix: '',
    example: `用户：250 的 12% 是多少？
助手：（调用 calculator，参数 {"expression": "0.12 * 250"}）
工具：30
助手：250 的 12% 是 30。`,
  },
};
