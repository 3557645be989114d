import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type {
  GetPromptResult,
  PromptMessage,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { requireOptional } from '../../core/index.js';
import { type McpContentPart, PART_SHAPES, readContentParts, toBlock } from './mcp-content.js';

/** What reading a resource gives: text, bytes, or either with its own media type. */
export type McpResourceBody =
  | string
  | Uint8Array
  | { text: string; mimeType?: string }
  | { blob: string | Uint8Array; mimeType?: string };

/** A resource an MCP client can list and read (a file, a memory, a document). */
export interface McpResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read(): McpResourceBody | Promise<McpResourceBody>;
}

/** Suggests values for one variable or argument as the person types (`completion/complete`). */
export type McpCompleter = (value: string, context: Record<string, string>) => string[] | Promise<string[]>;

/** A family of resources under an RFC 6570 URI template (`notes://{id}`), read by its variables. */
export interface McpResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read(uri: string, vars: Record<string, string>): McpResourceBody | Promise<McpResourceBody>;
  /** Completers per template variable. */
  complete?: Record<string, McpCompleter>;
}

/** One message of a prompt: text or a content part (image, embedded resource, ...). */
export interface McpPromptMessage {
  role: 'user' | 'assistant';
  content: string | McpContentPart;
}

/** A prompt an MCP client can list and fill in (an agent's instructions, a task template). */
export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean; complete?: McpCompleter }>;
  /** The prompt's messages for these arguments: one user message as text, or the messages. */
  get(
    args: Record<string, string>,
  ): string | McpPromptMessage[] | { description?: string; messages: McpPromptMessage[] } | Promise<unknown>;
}

/** Resources, templates and prompts one MCP server serves. */
export interface McpCatalog {
  resources?: readonly McpResource[];
  resourceTemplates?: readonly McpResourceTemplate[];
  prompts?: readonly McpPrompt[];
}

type Types = typeof import('@modelcontextprotocol/sdk/types.js');
type UriTemplateModule = typeof import('@modelcontextprotocol/sdk/shared/uriTemplate.js');

/**
 * Registers `resources/*`, `prompts/*` and `completion/complete` on a server. A missing resource
 * or prompt is a JSON-RPC error naming what exists; subscriptions are kept per server (one per
 * session) and reported with `notifications/resources/updated`.
 */
export function registerCatalog(server: Server, catalog: McpCatalog, subscriptions: Set<string>): void {
  const sdk = '@modelcontextprotocol/sdk';
  const { UriTemplate } = requireOptional<UriTemplateModule>('mcp', sdk, 'shared/uriTemplate.js');
  const served: ServedCatalog = {
    server,
    types: requireOptional<Types>('mcp', sdk, 'types.js'),
    resources: catalog.resources ?? [],
    templates: (catalog.resourceTemplates ?? []).map((template) => ({
      template,
      matcher: new UriTemplate(template.uriTemplate),
    })),
    prompts: catalog.prompts ?? [],
    subscriptions,
  };
  if (served.resources.length > 0 || served.templates.length > 0) registerResources(served);
  if (served.prompts.length > 0) registerPrompts(served);
  registerCompletion(served);
}

/** What one server serves, with the SDK it registers it through. */
interface ServedCatalog {
  server: Server;
  types: Types;
  resources: readonly McpResource[];
  templates: { template: McpResourceTemplate; matcher: InstanceType<UriTemplateModule['UriTemplate']> }[];
  prompts: readonly McpPrompt[];
  subscriptions: Set<string>;
}

function registerResources({ server, types, resources, templates, subscriptions }: ServedCatalog): void {
  server.setRequestHandler(types.ListResourcesRequestSchema, () => ({
    resources: resources.map(
      ({ uri, name, title, description, mimeType }): Resource => ({ uri, name, title, description, mimeType }),
    ),
  }));
  server.setRequestHandler(types.ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: templates.map(
      ({ template: { uriTemplate, name, title, description, mimeType } }): ResourceTemplate => ({
        uriTemplate,
        name,
        title,
        description,
        mimeType,
      }),
    ),
  }));
  server.setRequestHandler(types.ReadResourceRequestSchema, async ({ params: { uri } }) => {
    const fixed = resources.find((resource) => resource.uri === uri);
    if (fixed) return readResult(uri, fixed.mimeType, await fixed.read());
    for (const { template, matcher } of templates) {
      const vars = matcher.match(uri);
      if (vars) return readResult(uri, template.mimeType, await template.read(uri, flatten(vars)));
    }
    // -32002 is the spec's "resource not found".
    throw new types.McpError(-32002, `Resource not found: ${uri}. List them with resources/list.`, { uri });
  });
  server.setRequestHandler(types.SubscribeRequestSchema, ({ params: { uri } }) => {
    subscriptions.add(uri);
    return {};
  });
  server.setRequestHandler(types.UnsubscribeRequestSchema, ({ params: { uri } }) => {
    subscriptions.delete(uri);
    return {};
  });
}

function registerPrompts({ server, types, prompts }: ServedCatalog): void {
  const invalid = (message: string) => new types.McpError(types.ErrorCode.InvalidParams, message);
  server.setRequestHandler(types.ListPromptsRequestSchema, () => ({
    prompts: prompts.map(({ name, title, description, arguments: args }) => ({
      name,
      title,
      description,
      arguments: args?.map(({ name: arg, description: about, required }) => ({
        name: arg,
        description: about,
        required,
      })),
    })),
  }));
  server.setRequestHandler(types.GetPromptRequestSchema, async ({ params }) => {
    const prompt = prompts.find((p) => p.name === params.name);
    if (!prompt) {
      throw invalid(`Unknown prompt "${params.name}". Available: ${prompts.map((p) => p.name).join(', ')}.`);
    }
    const args = params.arguments ?? {};
    const missing = (prompt.arguments ?? []).filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
    if (missing.length > 0)
      throw invalid(
        `Prompt "${prompt.name}" needs the ${missing.length === 1 ? 'argument' : 'arguments'} ${missing.join(', ')}.`,
      );
    return promptResult(prompt, await prompt.get(args), types);
  });
}

function registerCompletion({ server, types, prompts, templates }: ServedCatalog): void {
  server.setRequestHandler(types.CompleteRequestSchema, async ({ params }) => {
    const context = params.context?.arguments ?? {};
    let completer: McpCompleter | undefined;
    if (params.ref.type === 'ref/prompt') {
      const name = params.ref.name;
      completer = prompts
        .find((p) => p.name === name)
        ?.arguments?.find((a) => a.name === params.argument.name)?.complete;
    } else {
      const uri = params.ref.uri;
      completer = templates.find((t) => t.template.uriTemplate === uri)?.template.complete?.[params.argument.name];
    }
    const all = completer ? await completer(params.argument.value, context) : [];
    // The spec caps one answer at 100 values.
    return { completion: { values: all.slice(0, 100), total: all.length, hasMore: all.length > 100 } };
  });
}

function flatten(vars: Record<string, string | string[]>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(vars).map(([key, value]) => [key, Array.isArray(value) ? value.join(',') : value]),
  );
}

function readResult(uri: string, mimeType: string | undefined, body: McpResourceBody): ReadResourceResult {
  if (typeof body === 'string') return { contents: [{ uri, mimeType, text: body }] };
  if (body instanceof Uint8Array) return { contents: [{ uri, mimeType, blob: Buffer.from(body).toString('base64') }] };
  if ('text' in body) return { contents: [{ uri, mimeType: body.mimeType ?? mimeType, text: body.text }] };
  const blob = typeof body.blob === 'string' ? body.blob : Buffer.from(body.blob).toString('base64');
  return { contents: [{ uri, mimeType: body.mimeType ?? mimeType, blob }] };
}

/**
 * A prompt's `get` result as MCP's: text is one user message; messages hold text or one content part
 * each (MCP's blocks or thinkflow's parts). Anything else is refused, naming the prompt and the shape.
 */
function promptResult(prompt: McpPrompt, value: unknown, types: Types): GetPromptResult {
  const refuse = (what: string) => new types.McpError(types.ErrorCode.InternalError, `Prompt "${prompt.name}" ${what}`);
  if (typeof value === 'string') {
    return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: value } }] };
  }
  const shaped = value as { description?: unknown; messages?: unknown } | null;
  const messages = Array.isArray(value) ? value : shaped?.messages;
  if (!Array.isArray(messages)) {
    throw refuse(
      'returned neither text, messages, nor { description?, messages }: get(args) returns a string, [{ role, content }], or { description?, messages: [{ role, content }] }.',
    );
  }
  return {
    description:
      (!Array.isArray(value) && typeof shaped?.description === 'string' && shaped.description) || prompt.description,
    messages: messages.map((message: McpPromptMessage | null, index): PromptMessage => {
      if (message?.role !== 'user' && message?.role !== 'assistant') {
        throw refuse(`message ${index} needs role 'user' or 'assistant' (it has ${JSON.stringify(message?.role)}).`);
      }
      if (typeof message.content === 'string')
        return { role: message.role, content: { type: 'text', text: message.content } };
      const read = readContentParts(message.content);
      if (read?.ok && read.parts.length === 1) {
        return { role: message.role, content: toBlock(read.parts[0]) as PromptMessage['content'] };
      }
      const why =
        read && !read.ok
          ? read.message
          : `content MCP cannot read; write a string or one part: ${Object.values(PART_SHAPES).join('; ')}.`;
      throw refuse(`message ${index} holds ${why}`);
    }),
  };
}
