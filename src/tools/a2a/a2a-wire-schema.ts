import { z } from 'zod';

/**
 * The A2A protocol's JSON-RPC binding. The schemas are v0.3's (`message/send`, `message/stream`,
 * `tasks/get`, `tasks/cancel`), and converters map v1.0's ProtoJSON shapes (`SendMessage`...,
 * `ROLE_USER`, `TASK_STATE_COMPLETED`) to and from them. A lenient schema of what thinkflow reads,
 * and the types of what it writes. Shared by the server routes and
 * `a2aAgentTool`, so both sides read one definition.
 */

/** A part of a message or artifact: text, structured data, or a file. */
export const A2aPart = z.union([
  z.looseObject({ kind: z.literal('text'), text: z.string() }),
  z.looseObject({ kind: z.literal('data'), data: z.record(z.string(), z.unknown()) }),
  z.looseObject({ kind: z.literal('file'), file: z.looseObject({}) }),
]);
export type A2aPart = z.infer<typeof A2aPart>;

export const A2aMessage = z.looseObject({
  kind: z.literal('message').optional(),
  messageId: z.string(),
  role: z.enum(['user', 'agent']),
  parts: z.array(A2aPart),
  taskId: z.string().optional(),
  contextId: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type A2aMessage = z.infer<typeof A2aMessage>;

export const A2aTaskState = z.enum([
  'submitted',
  'working',
  'input-required',
  'completed',
  'canceled',
  'failed',
  'rejected',
  'auth-required',
  'unknown',
]);
export type A2aTaskState = z.infer<typeof A2aTaskState>;

export const A2aTaskStatus = z.looseObject({
  state: A2aTaskState,
  message: A2aMessage.optional(),
  timestamp: z.string().optional(),
});
export type A2aTaskStatus = z.infer<typeof A2aTaskStatus>;

export const A2aArtifact = z.looseObject({
  artifactId: z.string(),
  name: z.string().optional(),
  parts: z.array(A2aPart),
});
export type A2aArtifact = z.infer<typeof A2aArtifact>;

export const A2aTask = z.looseObject({
  kind: z.literal('task'),
  id: z.string(),
  contextId: z.string(),
  status: A2aTaskStatus,
  history: z.array(A2aMessage).optional(),
  artifacts: z.array(A2aArtifact).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type A2aTask = z.infer<typeof A2aTask>;

/** `message/send` and `message/stream` params. */
export const A2aSendParams = z.looseObject({
  message: A2aMessage,
  configuration: z
    .looseObject({ blocking: z.boolean().optional(), historyLength: z.number().int().min(0).optional() })
    .optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type A2aSendParams = z.infer<typeof A2aSendParams>;

/** `tasks/get` and `tasks/cancel` params. */
export const A2aTaskQuery = z.looseObject({ id: z.string(), historyLength: z.number().int().min(0).optional() });
export type A2aTaskQuery = z.infer<typeof A2aTaskQuery>;

export const JsonRpcRequest = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  method: z.string(),
  params: z.unknown().optional(),
});
export type JsonRpcRequest = z.infer<typeof JsonRpcRequest>;

/**
 * The id to answer a JSON-RPC message with when it could not be read as a request (a wrong `jsonrpc`, no
 * `method`): its `id` when that is a string or a number, else null, as JSON-RPC 2.0 §5 asks.
 */
export function jsonRpcIdOf(message: unknown): string | number | null {
  const id =
    typeof message === 'object' && message !== null && !Array.isArray(message)
      ? (message as { id?: unknown }).id
      : null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** JSON-RPC and A2A error codes. */
export const A2A_ERRORS = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  unsupportedOperation: -32004,
} as const;

/** A JSON-RPC answer: `result`, or `error`. */
export const JsonRpcResponse = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: z.unknown(),
  result: z.unknown().optional(),
  error: z.looseObject({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
});
export type JsonRpcResponse = z.infer<typeof JsonRpcResponse>;

export const A2aStatusUpdate = z.looseObject({
  kind: z.literal('status-update'),
  taskId: z.string(),
  contextId: z.string(),
  status: A2aTaskStatus,
  final: z.boolean(),
});
export type A2aStatusUpdate = z.infer<typeof A2aStatusUpdate>;

export const A2aArtifactUpdate = z.looseObject({
  kind: z.literal('artifact-update'),
  taskId: z.string(),
  contextId: z.string(),
  artifact: A2aArtifact,
  append: z.boolean().optional(),
  lastChunk: z.boolean().optional(),
});
export type A2aArtifactUpdate = z.infer<typeof A2aArtifactUpdate>;

/** What `message/send` answers, and each event of `message/stream`. */
export const A2aResult = z.union([
  A2aTask,
  A2aMessage.extend({ kind: z.literal('message') }),
  A2aStatusUpdate,
  A2aArtifactUpdate,
]);
export type A2aResult = z.infer<typeof A2aResult>;

/** The part of an agent card a client reads to reach the agent. */
export const A2aAgentCard = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  /** The v0.3 endpoint; a v1.0 card lists its endpoints in `supportedInterfaces` instead. */
  url: z.string().optional(),
  protocolVersion: z.string().optional(),
  preferredTransport: z.string().optional(),
  capabilities: z.looseObject({ streaming: z.boolean().optional() }).optional(),
  skills: z.array(z.looseObject({ id: z.string(), name: z.string(), description: z.string().optional() })).optional(),
});
export type A2aAgentCard = z.infer<typeof A2aAgentCard>;

/** Task states after which a task never changes. */
export const A2A_FINAL_STATES: readonly A2aTaskState[] = ['completed', 'canceled', 'failed', 'rejected'];

/** The text of a message's or artifact's text parts. */
export function a2aText(parts: readonly A2aPart[]): string {
  return parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
}

/**
 * A2A v1.0 (JSON-RPC `SendMessage` / `GetTask`, the ProtoJSON shapes `@a2a-js/sdk` 1.x servers
 * speak natively): only what `a2aAgentTool` reads back.
 */
export const A2aV1Part = z.looseObject({ text: z.string().optional(), data: z.unknown().optional() });
export type A2aV1Part = z.infer<typeof A2aV1Part>;

export const A2aV1Message = z.looseObject({ messageId: z.string().optional(), parts: z.array(A2aV1Part).default([]) });

export const A2aV1Task = z.looseObject({
  id: z.string(),
  contextId: z.string().optional(),
  status: z.looseObject({ state: z.string(), message: A2aV1Message.nullish() }).nullish(),
  artifacts: z.array(z.looseObject({ parts: z.array(A2aV1Part).default([]) })).default([]),
});
export type A2aV1Task = z.infer<typeof A2aV1Task>;

/** `SendMessage`'s result: a task or a message. */
export const A2aV1SendResult = z.looseObject({ task: A2aV1Task.optional(), message: A2aV1Message.optional() });

/** The interfaces a v1.0 card lists. */
export const A2aV1Interfaces = z.array(
  z.looseObject({ url: z.string(), protocolBinding: z.string().optional(), protocolVersion: z.string().optional() }),
);

/** A v1.0 message as a client sends it (`role: ROLE_USER`, parts `{ text }` / `{ data }`). */
export const A2aV1InMessage = z.looseObject({
  messageId: z.string(),
  role: z.string().optional(),
  parts: z.array(
    z.looseObject({
      text: z.string().optional(),
      data: z.unknown().optional(),
      url: z.string().optional(),
      raw: z.string().optional(),
    }),
  ),
  taskId: z.string().optional(),
  contextId: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** v1.0 `SendMessage` / `SendStreamingMessage` params. */
export const A2aV1SendParams = z.looseObject({
  message: A2aV1InMessage,
  configuration: z
    .looseObject({
      returnImmediately: z.boolean().optional(),
      blocking: z.boolean().optional(),
      historyLength: z.number().int().min(0).optional(),
    })
    .optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** A v1.0 request as the v0.3 params the server handles (a URL or raw part stays a file part, refused there). */
export function fromV1SendParams(params: z.infer<typeof A2aV1SendParams>): A2aSendParams {
  const { message, configuration } = params;
  const parts: A2aPart[] = message.parts.map((p) =>
    p.text !== undefined
      ? { kind: 'text', text: p.text }
      : p.data !== undefined && typeof p.data === 'object' && p.data !== null && !Array.isArray(p.data)
        ? { kind: 'data', data: p.data as Record<string, unknown> }
        : { kind: 'file', file: {} },
  );
  const blocking = !(configuration?.returnImmediately === true || configuration?.blocking === false);
  return {
    message: {
      kind: 'message',
      messageId: message.messageId,
      role: 'user',
      parts,
      ...(message.taskId ? { taskId: message.taskId } : {}),
      ...(message.contextId ? { contextId: message.contextId } : {}),
    },
    configuration: { blocking, historyLength: configuration?.historyLength },
  };
}

const V1_STATES: Record<A2aTaskState, string> = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
  canceled: 'TASK_STATE_CANCELED',
  failed: 'TASK_STATE_FAILED',
  rejected: 'TASK_STATE_REJECTED',
  'auth-required': 'TASK_STATE_AUTH_REQUIRED',
  unknown: 'TASK_STATE_UNSPECIFIED',
};

const v1Parts = (parts: readonly A2aPart[]) =>
  parts.map((p) => (p.kind === 'text' ? { text: p.text } : p.kind === 'data' ? { data: p.data } : {}));

const v1Message = (m: A2aMessage) => {
  const { kind: _, role, parts, ...rest } = m;
  return { ...rest, role: role === 'agent' ? 'ROLE_AGENT' : 'ROLE_USER', parts: v1Parts(parts) };
};

const v1Status = (s: A2aTaskStatus) => ({
  state: V1_STATES[s.state],
  ...(s.message ? { message: v1Message(s.message) } : {}),
  ...(s.timestamp ? { timestamp: s.timestamp } : {}),
});

/** A v0.3 task as v1.0 ProtoJSON. */
export function toV1Task(task: A2aTask) {
  const { kind: _, status, history, artifacts, ...rest } = task;
  return {
    ...rest,
    status: v1Status(status),
    history: (history ?? []).map(v1Message),
    artifacts: (artifacts ?? []).map((a) => ({ ...a, parts: v1Parts(a.parts) })),
  };
}

/** A v0.3 stream event as a v1.0 `StreamResponse` (`{ task }`, `{ message }`, `{ statusUpdate }`, `{ artifactUpdate }`). */
export function toV1StreamResponse(result: A2aResult) {
  switch (result.kind) {
    case 'task':
      return { task: toV1Task(result as A2aTask) };
    case 'message':
      return { message: v1Message(result as A2aMessage) };
    case 'status-update': {
      const { kind: _, final: __, status, ...rest } = result as A2aStatusUpdate;
      return { statusUpdate: { ...rest, status: v1Status(status) } };
    }
    default: {
      const { kind: _, artifact, ...rest } = result as A2aArtifactUpdate;
      return { artifactUpdate: { ...rest, artifact: { ...artifact, parts: v1Parts(artifact.parts) } } };
    }
  }
}
