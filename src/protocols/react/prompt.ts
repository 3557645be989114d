import type { PromptTemplates } from '../shared/prompt-template.js';

/** The ReAct protocol's prompt text, in English and Chinese. Edit here, not in code. */
export const reactPrompt: PromptTemplates = {
  en: {
    defaultInstructions: 'You are a helpful assistant. Solve the task step by step, using tools when they help.',
    toolsHeading: 'You can use these tools:',
    argumentsLabel: 'arguments (JSON Schema)',
    format: `Use this format:

Thought: reason about what to do next
Action: the tool to use, one of [{tool_names}]
Action Input: the tool's arguments as one JSON object
Observation: the tool's result
... (Thought / Action / Action Input / Observation can repeat)
Thought: I now know the final answer
Final Answer: the answer to the original question

Rules:
- Write one Action per reply, then stop; to make several independent tool calls at once, write one Action and Action Input pair per call, one after another. The Observation is written for you (one result per call, in order): never write it yourself.
- Action Input is a single JSON object that matches the tool's schema.
- When you can answer, write "Final Answer:" followed by the answer.`,
    formatNoTools: `Use this format:

Thought: reason about the question
Final Answer: the answer to the original question`,
    examplesHeading: 'Examples:',
    contextHeading: 'Context:',
    correction:
      'Your last reply could not be read: {reason}\nReply again in the format: "Thought:", then either "Action:" with "Action Input:", or "Final Answer:".',
    finalAnswerRequest:
      'You have reached the step limit. Do not use any more tools. Write your best answer now, as "Final Answer: ...".',
    observationPrefix: 'Observation: ',
    example: `Question: What is 12% of 250?
Thought: I should compute this with the calculator.
Action: calculator
Action Input: {"expression": "0.12 * 250"}
Observation: 30
Thought: I now know the final answer.
Final Answer: 12% of 250 is 30.`,
  },
  zh: {
    defaultInstructions: '你是一个乐于助人的助手。请一步一步地解决任务，需要时使用工具。',
    toolsHeading: '你可以使用以下工具：',
    argumentsLabel: '参数（JSON Schema）',
    format: `请严格使用以下格式：

思考：思考下一步该做什么
行动：要使用的工具，必须是 [{tool_names}] 之一
行动输入：工具的参数，一个 JSON 对象
观察：工具返回的结果
……（思考 / 行动 / 行动输入 / 观察 可以重复多次）
思考：我现在知道最终答案了
最终答案：对原始问题的回答

规则：
- 每次回复只写一个行动，然后停止；需要同时进行几个互不依赖的工具调用时，依次为每个调用写一组“行动：”和“行动输入：”。观察由系统提供（每个调用一个结果，按顺序），不要自己编写。
- 行动输入必须是一个符合工具参数定义的 JSON 对象。
- 能够回答时，写“最终答案：”并给出答案。`,
    formatNoTools: `请使用以下格式：

思考：思考这个问题
最终答案：对原始问题的回答`,
    examplesHeading: '示例：',
    contextHeading: '背景信息：',
    correction:
      '无法解析你上一次的回复：{reason}\n请按格式重新回复：先写“思考：”，然后写“行动：”和“行动输入：”，或者写“最终答案：”。',
    finalAnswerRequest: '已达到步数上限。不要再使用任何工具，现在以“最终答案：……”的形式给出你的最佳答案。',
    observationPrefix: '观察：',
    example: `问题：250 的 12% 是多少？
思考：我应该用计算器来算。
行动：calculator
行动输入：{"expression": "0.12 * 250"}
观察：30
思考：我现在知道最终答案了。
最终答案：250 的 12% 是 30。`,
  },
};
