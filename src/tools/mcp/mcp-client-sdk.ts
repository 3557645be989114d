import { importOptional } from '../../core/index.js';

/** The parts of the MCP SDK the client side uses, loaded together on the first connection. */
export interface McpClientSdk {
  Client: typeof import('@modelcontextprotocol/sdk/client/index.js').Client;
  StdioClientTransport: typeof import('@modelcontextprotocol/sdk/client/stdio.js').StdioClientTransport;
  getDefaultEnvironment: typeof import('@modelcontextprotocol/sdk/client/stdio.js').getDefaultEnvironment;
  StreamableHTTPClientTransport: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport;
  McpError: typeof import('@modelcontextprotocol/sdk/types.js').McpError;
  ErrorCode: typeof import('@modelcontextprotocol/sdk/types.js').ErrorCode;
  /** The request and notification schemas, for the handlers the client registers. */
  types: typeof import('@modelcontextprotocol/sdk/types.js');
  UnauthorizedError: typeof import('@modelcontextprotocol/sdk/client/auth.js').UnauthorizedError;
  ClientCredentialsProvider: typeof import('@modelcontextprotocol/sdk/client/auth-extensions.js').ClientCredentialsProvider;
  PrivateKeyJwtProvider: typeof import('@modelcontextprotocol/sdk/client/auth-extensions.js').PrivateKeyJwtProvider;
}

let loaded: Promise<McpClientSdk> | undefined;

/**
 * Loads the MCP SDK's client modules (an optional peer dependency) once. A missing SDK is a
 * `ConfigError` with the install command.
 */
export function loadMcpClientSdk(): Promise<McpClientSdk> {
  loaded ??= (async () => {
    const sdk = '@modelcontextprotocol/sdk';
    type Sdk<P extends string> = P extends 'client'
      ? typeof import('@modelcontextprotocol/sdk/client/index.js')
      : P extends 'stdio'
        ? typeof import('@modelcontextprotocol/sdk/client/stdio.js')
        : P extends 'http'
          ? typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js')
          : P extends 'auth'
            ? typeof import('@modelcontextprotocol/sdk/client/auth.js')
            : P extends 'auth-extensions'
              ? typeof import('@modelcontextprotocol/sdk/client/auth-extensions.js')
              : typeof import('@modelcontextprotocol/sdk/types.js');
    const [client, stdio, http, types, auth, extensions] = await Promise.all([
      importOptional<Sdk<'client'>>('mcp', sdk, 'client/index.js'),
      importOptional<Sdk<'stdio'>>('mcp', sdk, 'client/stdio.js'),
      importOptional<Sdk<'http'>>('mcp', sdk, 'client/streamableHttp.js'),
      importOptional<Sdk<'types'>>('mcp', sdk, 'types.js'),
      importOptional<Sdk<'auth'>>('mcp', sdk, 'client/auth.js'),
      importOptional<Sdk<'auth-extensions'>>('mcp', sdk, 'client/auth-extensions.js'),
    ]);
    return {
      Client: client.Client,
      StdioClientTransport: stdio.StdioClientTransport,
      getDefaultEnvironment: stdio.getDefaultEnvironment,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      McpError: types.McpError,
      ErrorCode: types.ErrorCode,
      types,
      UnauthorizedError: auth.UnauthorizedError,
      ClientCredentialsProvider: extensions.ClientCredentialsProvider,
      PrivateKeyJwtProvider: extensions.PrivateKeyJwtProvider,
    };
  })().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}
