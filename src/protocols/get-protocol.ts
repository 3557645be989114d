import { ConfigError } from '../core/index.js';
import { codeProtocol } from './code/code-protocol.js';
import { jsonProtocol } from './json/json-protocol.js';
import { nativeProtocol } from './native/native-protocol.js';
import type { Protocol, ProtocolName } from './protocol.js';
import { reactProtocol } from './react/react-protocol.js';

const PROTOCOLS: Record<ProtocolName, Protocol> = {
  native: nativeProtocol,
  json: jsonProtocol,
  react: reactProtocol,
  code: codeProtocol,
};

/**
 * The protocol with this name. Throws a ConfigError naming the valid choices for any other name
 * (a person fixes that, not the model).
 *
 * @example
 * const protocol = getProtocol('react');
 */
export function getProtocol(name: ProtocolName): Protocol {
  const protocol = Object.hasOwn(PROTOCOLS, name) ? PROTOCOLS[name] : undefined;
  if (!protocol) {
    throw new ConfigError({ message: `Unknown protocol "${String(name)}". Use one of: native, json, react, code.` });
  }
  return protocol;
}
