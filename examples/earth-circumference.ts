// Seed 001's chain: search for a fact, then compute with the number it found (ReAct protocol).
// The demo model plays the LLM over the demo tools; swap in a real model and real tools to go live.
import { Agent, calculatorTool } from 'thinkflow';
import { demoModel, demoSearchTool } from 'thinkflow/testing';

const agent = new Agent({
  model: demoModel(),
  tools: [demoSearchTool, calculatorTool],
  protocol: 'react',
  language: 'zh',
  maxSteps: 5,
});

const result = await agent.run('地球的周长是多少米？再除以1000换算成公里', {
  onEvent: (e) => {
    if (e.type === 'thought') console.log(`思考：${e.text}`);
    if (e.type === 'tool_start') console.log(`行动：${e.tool} ${JSON.stringify(e.input)}`);
    if (e.type === 'tool_end') console.log(`观察：${e.output}`);
  },
});
console.log(result.status, result.output);
