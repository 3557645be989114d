/**
 * Every tool-call format real models write in text, as data: the markers that open and close a call,
 * where the tool's name sits, how the body is read, the habit a reply read through it records, an
 * example and the models that write it. One scanner (`read-tool-calls.ts`) reads them all; a new
 * format is a row here and a fixture in `test/fixtures/tool-calls/`, not a parser.
 */
import type { ReplyHabit } from '../../core/index.js';

/**
 * How a call's body is read:
 * - `calls`: one or more whole calls: JSON objects or arrays in any envelope (`{"name", "arguments"}`,
 *   `{"tool_calls": […]}`…), Python calls (`[f(a=1), g(b=2)]`), `name` + arguments
 *   (`name[ARGS]{…}`, `name\n{…}`), GLM-4.5's `name<arg_key>…`, or further tagged calls inside;
 * - `arguments`: the marker carried the name, the body is its arguments (a JSON object, Python keyword
 *   arguments, or `<parameter>`/`<param>` tags);
 * - `named`: `name` then a separator (`separators`) then the arguments (DeepSeek, Kimi), or
 *   `call:name{…}` / `call:name(…)` (FunctionGemma, Gemma 4).
 */
export type CallBody = 'calls' | 'arguments' | 'named';

/** One tool-call format. Markers are literal text (ASCII letters matched in any case), never patterns. */
export interface CallFormat {
  id: string;
  /** The models (or servers) that write it. */
  models: string;
  /** Markers that open a call; the first found in a reply wins. */
  open: readonly string[];
  /** The tool's name follows the marker and ends at one of these; `after` is skipped past when present. */
  name?: { until: readonly string[]; after?: string };
  /** Markers that close a call. Without one, the call runs to the next opening marker or the end. */
  close: readonly string[];
  /** The marker counts only at the start of a line (it is also ordinary text elsewhere). */
  lineStart?: boolean;
  body: CallBody;
  /** Separators between the name and the arguments, for `named` bodies. */
  separators?: readonly string[];
  /** Quote tokens the template puts around strings (`<escape>`), read like `"` in arguments. */
  quotes?: readonly string[];
  habit: ReplyHabit;
  /** A one-line example, shown in docs/protocols.md and checked by a test. */
  example: string;
}

// DeepSeek writes full-width bars and ▁ in its tokens; servers and copies often turn them into ASCII.
const deepseek = (word: string) => [
  `<｜${word.replaceAll('_', '▁')}｜>`,
  `<|${word.replaceAll('_', '▁')}|>`,
  `<｜${word}｜>`,
  `<|${word}|>`,
];

/** The formats with markers, read wherever they appear in a reply. */
export const MARKED_FORMATS: readonly CallFormat[] = [
  {
    id: 'hermes',
    models: 'Hermes 2 Pro / 3, Qwen 2.5 / 3, Qwen3-Coder and GLM-4.5 (tags inside), Falcon, EXAONE',
    open: ['<tool_call>', '<tool_calls>'],
    close: ['</tool_call>', '</tool_calls>'],
    body: 'calls',
    habit: 'special_tokens',
    example: '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
  },
  {
    id: 'function_tag',
    models: 'Llama 3.1 (custom tool format), Functionary v3.1, Qwen3-Coder, Seed-OSS',
    open: ['<function='],
    name: { until: ['>'] },
    close: ['</function>'],
    body: 'arguments',
    habit: 'special_tokens',
    example: '<function=get_weather><parameter=city>Paris</parameter></function>',
  },
  {
    id: 'invoke',
    models: 'Anthropic-style prompts, MiniMax-M2, BFCL XML formats',
    open: ['<invoke name="', '<function name="', "<invoke name='"],
    name: { until: ['"', "'"], after: '>' },
    close: ['</invoke>', '</function>'],
    body: 'arguments',
    habit: 'special_tokens',
    example: '<invoke name="get_weather"><parameter name="city">Paris</parameter></invoke>',
  },
  {
    id: 'mistral',
    models: 'Mistral 7B v0.3, Mixtral, Mistral Nemo / Small / Large (both the list and the [ARGS] form)',
    open: ['[TOOL_CALLS]'],
    close: ['</s>'],
    body: 'calls',
    habit: 'special_tokens',
    example: '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]',
  },
  {
    id: 'llama_python_tag',
    models: 'Llama 3.1 / 3.2 / 3.3 (built-in and JSON tool calls)',
    open: ['<|python_tag|>'],
    close: ['<|eom_id|>', '<|eot_id|>'],
    body: 'calls',
    habit: 'special_tokens',
    example: '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}',
  },
  {
    id: 'llama4_python',
    models: 'Llama 4 (pythonic calls in python tokens)',
    open: ['<|python_start|>'],
    close: ['<|python_end|>'],
    body: 'calls',
    habit: 'special_tokens',
    example: '<|python_start|>[get_weather(city="Paris")]<|python_end|>',
  },
  {
    id: 'granite',
    models: 'IBM Granite 3 / 3.1 (<|tool_call|>) and Granite 20B function-calling (<function_call>)',
    open: ['<|tool_call|>', '<function_call>'],
    close: ['</function_call>'],
    body: 'calls',
    habit: 'special_tokens',
    example: '<function_call> {"name": "get_weather", "arguments": {"city": "Paris"}}',
  },
  {
    id: 'minicpm',
    models: 'MiniCPM3 / MiniCPM4, Liquid LFM2 (Python calls between tool-call tokens)',
    open: ['<|tool_call_start|>'],
    close: ['<|tool_call_end|>'],
    body: 'calls',
    habit: 'special_tokens',
    example: '<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>',
  },
  {
    id: 'toolcall_tag',
    models: 'Nemotron, BFCL prompts with a tool-call tag',
    open: ['<toolcall>'],
    close: ['</toolcall>'],
    body: 'calls',
    habit: 'special_tokens',
    example: '<TOOLCALL>[get_weather(city="Paris")]</TOOLCALL>',
  },
  {
    id: 'functionary',
    models: 'Functionary v3.2 / v2 (a recipient line per call)',
    open: ['>>>'],
    name: { until: ['\n'] },
    lineStart: true,
    close: [],
    body: 'arguments',
    habit: 'special_tokens',
    example: '>>>get_weather\n{"city": "Paris"}',
  },
  {
    id: 'deepseek_kimi',
    models: 'DeepSeek V3 / R1 / V3.1, Kimi K2 (tool-call tokens)',
    open: [...deepseek('tool_call_begin')],
    close: [...deepseek('tool_call_end')],
    body: 'named',
    separators: [...deepseek('tool_sep'), '<|tool_call_argument_begin|>'],
    habit: 'special_tokens',
    example:
      '<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris"}\n```<｜tool▁call▁end｜>',
  },
  {
    id: 'harmony',
    models: 'gpt-oss (OpenAI harmony format)',
    open: ['to=functions.'],
    name: { until: [' ', '<', '\n'], after: '<|message|>' },
    close: ['<|call|>', '<|end|>'],
    body: 'arguments',
    habit: 'special_tokens',
    example: '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>',
  },
  {
    id: 'functiongemma',
    models: 'FunctionGemma',
    open: ['<start_function_call>'],
    close: ['<end_function_call>'],
    body: 'named',
    quotes: ['<escape>'],
    habit: 'special_tokens',
    example: '<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>',
  },
  {
    id: 'gemma4',
    models: 'Gemma 4',
    open: ['<|tool_call>'],
    close: ['<tool_call|>'],
    body: 'named',
    quotes: ['<|"|>'],
    habit: 'special_tokens',
    example: '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>',
  },
  {
    id: 'nexusraven',
    models: 'NexusRaven-V2 (`Call:` then Python calls, `;` between them)',
    open: ['Call:'],
    lineStart: true,
    close: ['<bot_end>', '\nThought:'],
    body: 'calls',
    habit: 'special_tokens',
    example: 'Call: get_weather(city="Paris"); get_time(zone="CET")',
  },
];

/**
 * The formats with no marker, read only when a reply holds no marked call, and only where they stand
 * alone (a whole line, a whole fence, the whole reply), so prose that mentions a call is never one.
 */
export interface UnmarkedFormat {
  id: string;
  models: string;
  /** What stands alone: JSON values, Python call lines, or a name line then a JSON object. */
  syntax: 'json' | 'python' | 'name_json';
  habit?: ReplyHabit;
  example: string;
}

/** The unmarked formats, in the order they are tried. */
export const UNMARKED_FORMATS: readonly UnmarkedFormat[] = [
  {
    id: 'json',
    models:
      'any model asked for JSON: the json protocol\'s object, {"name", "arguments"|"parameters"} (Llama 3.1), {"tool_calls": […]} (xLAM), arrays, {"tool_name", "parameters"} (Command-R), {"function", "parameters"} (BFCL), `;`-separated objects',
    syntax: 'json',
    habit: 'json_envelope',
    example: '{"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]}',
  },
  {
    id: 'pythonic',
    models:
      'Llama 3.2 / 3.3 / 4, ToolACE, watt-tool, Hammer, Gemma (tool_code fences), Phi, BFCL prompting: a call list or bare calls, one per line or `;`-separated',
    syntax: 'python',
    habit: 'special_tokens',
    example: '[get_weather(city="Paris"), get_time(zone="CET")]',
  },
  {
    id: 'name_json',
    models: 'ChatGLM3 / GLM-4 (the tool name on its own line, then its JSON arguments)',
    syntax: 'name_json',
    habit: 'special_tokens',
    example: 'get_weather\n{"city": "Paris"}',
  },
];
