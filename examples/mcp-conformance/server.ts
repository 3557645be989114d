/**
 * The MCP conformance suite's test server, built on `serveMcp`: the tools, resources and prompts
 * the suite's server scenarios call (`npx @modelcontextprotocol/conformance server --url URL`). Its
 * content is written in the MCP specification's own shapes (`mimeType`, a nested `resource`), as a
 * user copying the spec would; thinkflow's parts (`mediaType`, a flat resource) give the same blocks.
 * Prints its URL on stdout. Run: `node --import tsx examples/mcp-conformance/server.ts [PORT]`.
 */
import { defineTool, jsonSchemaTool } from 'thinkflow';
import { type McpPrompt, type McpResource, type McpResourceTemplate, serveMcp } from 'thinkflow/mcp';
import { z } from 'zod';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';
const none = z.object({});
const pause = () => new Promise((resolve) => setTimeout(resolve, 50));

const tools = [
  defineTool({
    name: 'test_simple_text',
    description: 'Tests simple text content response',
    input: none,
    run: () => 'This is a simple text response for testing.',
  }),
  defineTool({
    name: 'test_image_content',
    description: 'Tests image content response',
    input: none,
    run: () => ({ type: 'image', data: PNG, mimeType: 'image/png' }),
  }),
  defineTool({
    name: 'test_audio_content',
    description: 'Tests audio content response',
    input: none,
    run: () => ({ type: 'audio', data: WAV, mimeType: 'audio/wav' }),
  }),
  defineTool({
    name: 'test_embedded_resource',
    description: 'Tests embedded resource content response',
    input: none,
    run: () => ({
      type: 'resource',
      resource: {
        uri: 'test://embedded-resource',
        mimeType: 'text/plain',
        text: 'This is an embedded resource content.',
      },
    }),
  }),
  defineTool({
    name: 'test_multiple_content_types',
    description: 'Tests response with multiple content types (text, image, resource)',
    input: none,
    run: () => [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        },
      },
    ],
  }),
  defineTool({
    name: 'test_tool_with_logging',
    description: 'Tests tool that emits log messages during execution',
    input: none,
    async run(_, ctx) {
      await ctx.log?.('info', 'Tool execution started');
      await pause();
      await ctx.log?.('info', 'Tool processing data');
      await pause();
      await ctx.log?.('info', 'Tool execution completed');
      return 'Tool with logging executed successfully';
    },
  }),
  defineTool({
    name: 'test_tool_with_progress',
    description: 'Tests tool that reports progress notifications',
    input: none,
    async run(_, ctx) {
      for (const step of [0, 50, 100]) {
        await ctx.progress?.(step, 100, `Completed step ${step} of 100`);
        if (step < 100) await pause();
      }
      return 'Progress reported.';
    },
  }),
  defineTool({
    name: 'test_error_handling',
    description: 'Tests error response handling',
    input: none,
    run() {
      throw new Error('This tool intentionally returns an error for testing');
    },
  }),
  defineTool({
    name: 'test_sampling',
    description: 'Tests server-initiated sampling (LLM completion request)',
    input: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
    async run({ prompt }, ctx) {
      if (!ctx.sample) return 'Sampling not supported by this client.';
      const reply = await ctx.sample({ messages: [{ role: 'user', content: prompt }], maxTokens: 100 });
      return `LLM response: ${reply.text}`;
    },
  }),
  defineTool({
    name: 'test_elicitation',
    description: 'Tests server-initiated elicitation (user input request)',
    input: z.object({ message: z.string().describe('The message to show the user') }),
    async run({ message }, ctx) {
      if (!ctx.elicit) return 'Elicitation not supported by this client.';
      const answer = await ctx.elicit({
        message,
        requestedSchema: {
          type: 'object',
          properties: { response: { type: 'string', description: "User's response" } },
          required: ['response'],
        },
      });
      return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Tests elicitation with default values per SEP-1034',
    input: none,
    async run(_, ctx) {
      const answer = await ctx.elicit?.({
        message: 'Please review and update the form fields with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
          required: [],
        },
      });
      return `Elicitation completed: action=${answer?.action}, content=${JSON.stringify(answer?.content ?? {})}`;
    },
  }),
  defineTool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Tests elicitation with enum schema improvements per SEP-1330',
    input: none,
    async run(_, ctx) {
      const answer = await ctx.elicit?.({
        message: 'Please select options from the enum fields',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: {
              type: 'string',
              description: 'Select one option',
              enum: ['option1', 'option2', 'option3'],
            },
            titledSingle: {
              type: 'string',
              description: 'Select one option with titles',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Select one option (legacy)',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Select multiple options',
              minItems: 1,
              maxItems: 3,
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Select multiple options with titles',
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
          required: [],
        },
      });
      return `Elicitation completed: action=${answer?.action}, content=${JSON.stringify(answer?.content ?? {})}`;
    },
  }),
  jsonSchemaTool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)',
    parameters: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    run: (args) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`,
  }),
];

const resources: McpResource[] = [
  {
    uri: 'test://static-text',
    name: 'static-text',
    title: 'Static Text Resource',
    description: 'A static text resource for testing',
    mimeType: 'text/plain',
    read: () => 'This is the content of the static text resource.',
  },
  {
    uri: 'test://static-binary',
    name: 'static-binary',
    title: 'Static Binary Resource',
    description: 'A static binary resource (image) for testing',
    mimeType: 'image/png',
    read: () => Buffer.from(PNG, 'base64'),
  },
  {
    uri: 'test://watched-resource',
    name: 'watched-resource',
    title: 'Watched Resource',
    description: 'A resource clients can subscribe to',
    mimeType: 'text/plain',
    read: () => 'Watched resource content',
  },
];

const resourceTemplates: McpResourceTemplate[] = [
  {
    uriTemplate: 'test://template/{id}/data',
    name: 'template',
    title: 'Resource Template',
    description: 'A resource template with parameter substitution',
    mimeType: 'application/json',
    read: (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
  },
];

const prompts: McpPrompt[] = [
  {
    name: 'test_simple_prompt',
    title: 'Simple Test Prompt',
    description: 'A simple prompt without arguments',
    get: () => 'This is a simple prompt for testing.',
  },
  {
    name: 'test_prompt_with_arguments',
    title: 'Prompt With Arguments',
    description: 'A prompt with required arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  },
  {
    name: 'test_prompt_with_embedded_resource',
    title: 'Prompt With Embedded Resource',
    description: 'A prompt that includes an embedded resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    get: ({ resourceUri }) => [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: 'Please process the embedded resource above.' },
    ],
  },
  {
    name: 'test_prompt_with_image',
    title: 'Prompt With Image',
    description: 'A prompt that includes image content',
    get: () => [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: 'Please analyze the image above.' },
    ],
  },
];

const serving = await serveMcp(tools, {
  transport: 'http',
  port: Number(process.argv[2] ?? 0),
  name: 'thinkflow-conformance-server',
  resources,
  resourceTemplates,
  prompts,
});
console.log(serving.url);
