import { ConfigError, type ContentPart, type Message, type ToolSpec } from '../../../core/index.js';
import { parseDataUrl } from '../media-url.js';
import { argumentsObject } from '../tool-arguments.js';
import { toGeminiSchema } from './to-gemini-schema.js';

/** A Gemini content part, as sent. */
export type GeminiPart = (
  | { text: string }
  | { inlineData: { mimeType: string; data: string } }
  | { fileData: { mimeType?: string; fileUri: string } }
  | { functionCall: { name: string; args: Record<string, unknown> } }
  | { functionResponse: { name: string; response: Record<string, unknown> } }
) & { thoughtSignature?: string };

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/**
 * Converts thinkflow messages to Gemini `contents` and the `systemInstruction`. Tool results become
 * `functionResponse` parts of a user turn (named after the call they answer), images `inlineData`
 * (or `fileData` for a URL), and an assistant's Gemini thought signatures go back on the parts they
 * came with. Consecutive turns of one role are merged, as Gemini expects them to alternate.
 */
export function toGeminiContents(messages: readonly Message[]): {
  systemInstruction?: { parts: { text: string }[] };
  contents: GeminiContent[];
} {
  const system: string[] = [];
  const contents: GeminiContent[] = [];
  const callNames = new Map<string, string>();
  for (const message of messages) {
    if (message.role === 'system') {
      system.push(message.content);
      continue;
    }
    let role: GeminiContent['role'] = 'user';
    let parts: GeminiPart[];
    if (message.role === 'assistant') {
      role = 'model';
      for (const call of message.toolCalls ?? []) callNames.set(call.id, call.name);
      parts = modelParts(message);
    } else if (message.role === 'tool') {
      const name = message.name ?? callNames.get(message.toolCallId) ?? 'tool';
      const text = typeof message.content === 'string' ? message.content : textOf(message.content);
      parts = [{ functionResponse: { name, response: { result: text } } }];
      if (typeof message.content !== 'string')
        parts.push(...message.content.filter((p) => p.type !== 'text').map(toGeminiPart));
    } else {
      parts = typeof message.content === 'string' ? [{ text: message.content }] : message.content.map(toGeminiPart);
    }
    if (parts.length === 0) continue;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  }
  return system.length > 0 ? { systemInstruction: { parts: [{ text: system.join('\n\n') }] }, contents } : { contents };
}

function modelParts(message: Extract<Message, { role: 'assistant' }>): GeminiPart[] {
  const signatures = new Map<string, string>();
  for (const part of message.reasoning ?? []) {
    if (part.provider === 'gemini' && part.signature && part.id) signatures.set(part.id, part.signature);
  }
  const parts: GeminiPart[] = [];
  const textSignature = signatures.get('text') ?? signatures.get('thought');
  if (message.content || textSignature) parts.push(signed({ text: message.content }, textSignature));
  for (const call of message.toolCalls ?? []) {
    parts.push(
      signed(
        { functionCall: { name: call.name, args: argumentsObject(call.arguments) } },
        signatures.get(`call:${call.id}`),
      ),
    );
  }
  return parts;
}

function signed(part: GeminiPart, signature: string | undefined): GeminiPart {
  return signature ? { ...part, thoughtSignature: signature } : part;
}

function textOf(parts: readonly ContentPart[]): string {
  return parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
}

/** A content part as a Gemini part: text, `inlineData` (base64 or a data URL) or `fileData` (a URL). */
export function toGeminiPart(part: ContentPart): GeminiPart {
  if (part.type === 'text') return { text: part.text };
  if (part.type === 'image' && 'url' in part) {
    const inline = parseDataUrl(part.url);
    if (inline) return { inlineData: { mimeType: inline.mediaType, data: inline.data } };
    if (!/^(https?|gs):\/\//.test(part.url)) {
      throw new ConfigError({ message: `gemini cannot read the image URL ${part.url}; pass base64 data instead.` });
    }
    return { fileData: { fileUri: part.url } };
  }
  return { inlineData: { mimeType: part.mediaType, data: part.data } };
}

/** Tool specs as Gemini `tools`: one entry holding every function declaration, schemas converted. */
export function toGeminiTools(tools: readonly ToolSpec[]) {
  return [
    {
      functionDeclarations: tools.map((tool) => {
        const parameters = toGeminiSchema(tool.parameters);
        // Gemini rejects an OBJECT schema with no properties: a tool without arguments sends none.
        const empty = !parameters.properties || Object.keys(parameters.properties).length === 0;
        return empty
          ? { name: tool.name, description: tool.description }
          : { name: tool.name, description: tool.description, parameters };
      }),
    },
  ];
}
