import type { PromptTemplates } from '../shared/prompt-template.js';

/** The JSON protocol's prompt text, in English and Chinese. Edit here, not in code. */
export const jsonPrompt: PromptTemplates = {
  en: {
    defaultInstructions: 'You are a helpful assistant. Solve the task step by step, using tools when they help.',
    toolsHeading: 'You can use these tools:',
    argumentsLabel: 'arguments (JSON Schema)',
    format: `Reply with exactly one JSON object and nothing else.

To use a tool (one of: {tool_names}):
{"thought": "what you think and why", "action": "<tool name>", "action_input": {<the tool's arguments>}}

To answer:
{"thought": "why you can answer now", "action": "final_answer", "action_input": "<your answer>"}

Rules:
- One action per reply; to make several independent tool calls at once, reply with a JSON array of action objects. The results come back in the next message as "Observation: ...", in the same order.
- For a tool, action_input is a JSON object that matches the tool's schema.
- Use double quotes, no comments and no trailing commas.`,
    formatNoTools: `Reply with exactly one JSON object and nothing else:
{"thought": "your reasoning", "action": "final_answer", "action_input": "<your answer>"}`,
    examplesHeading: 'Examples:',
    contextHeading: 'Context:',
    correction:
      'Your last reply could not be read: {reason}\nReply again with one JSON object: {"thought": "...", "action": "<tool name>", "action_input": {...}} or {"thought": "...", "action": "final_answer", "action_input": "<answer>"}.',
    finalAnswerRequest:
      'You have reached the step limit. Do not use any more tools. Reply now with {"action": "final_answer", "action_input": "<your best answer>"}.',
    observationPrefix: 'Observation: ',
    example: `User: What is 12% of 250?
Assistant: {"thought": "I should compute this with the calculator.", "action": "calculator", "action_input": {"expression": "0.12 * 250"}}
User: Observation: 30
Assistant: {"thought": "I have the result.", "action": "final_answer", "action_input": "12% of 250 is 30."}`,
  },
  zh: {
    defaultInstructions: '你是一个乐于助人的助手。请一步一步地解决任务，需要时使用工具。',
    toolsHeading: '你可以使用以下工具：',
    argumentsLabel: '参数（JSON Schema）',
    format: `只回复一个 JSON 对象，不要输出其他内容。

使用工具时（可选：{tool_names}）：
{"thought": "你的思考", "action": "<工具名>", "action_input": {<工具参数>}}

给出答案时：
{"thought": "为什么现在可以回答", "action": "final_answer", "action_input": "<你的答案>"}

规则：
- 每次回复只做一个行动；需要同时进行几个互不依赖的工具调用时，回复一个由行动对象组成的 JSON 数组。工具的结果会在下一条消息中以“观察：……”按同样的顺序返回。
- 使用工具时，action_input 必须是符合工具参数定义的 JSON 对象。
- 使用双引号，不要注释，不要尾随逗号。`,
    formatNoTools: `只回复一个 JSON 对象，不要输出其他内容：
{"thought": "你的思考", "action": "final_answer", "action_input": "<你的答案>"}`,
    examplesHeading: '示例：',
    contextHeading: '背景信息：',
    correction:
      '无法解析你上一次的回复：{reason}\n请重新回复一个 JSON 对象：{"thought": "...", "action": "<工具名>", "action_input": {...}} 或 {"thought": "...", "action": "final_answer", "action_input": "<答案>"}。',
    finalAnswerRequest:
      '已达到步数上限。不要再使用任何工具，现在回复 {"action": "final_answer", "action_input": "<你的最佳答案>"}。',
    observationPrefix: '观察：',
    example: `用户：250 的 12% 是多少？
助手：{"thought": "我应该用计算器来算。", "action": "calculator", "action_input": {"expression": "0.12 * 250"}}
用户：观察：30
助手：{"thought": "我已经得到结果。", "action": "final_answer", "action_input": "250 的 12% 是 30。"}`,
  },
};
