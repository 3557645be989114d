import { ConfigError } from '../core/index.js';
import { codeProtocol } from './code/code-protocol.js';
import { jsonProtocol } from './json/json-protocol.js';
import { nativeProtocol } from './native/native-protocol.js';
import type { Protocol, ProtocolName } from './protocol.js';
import { reactProtocol } from './react/react-protocol.js';

/** The protocols an agent picks by name; the code protocol's modules stay out of them (`codeAct()`, `thinkflow/code`). */
const CORE: Record<Exclude<ProtocolName, 'code'>, Protocol> = {
  native: nativeProtocol,
  json: jsonProtocol,
  react: reactProtocol,
};

/**
 * The native, json or react protocol: what `new Agent({ protocol })` picks by name, without bundling the
 * code protocol. Throws a ConfigError naming the valid choices for any other name.
 *
 * @example
 * const protocol = coreProtocol('react');
 */
export function coreProtocol(name: Exclude<ProtocolName, 'code'>): Protocol {
  const protocol = Object.hasOwn(CORE, name) ? CORE[name] : undefined;
  if (!protocol) {
    throw new ConfigError({
      message: `Unknown protocol "${String(name)}". Use one of: auto, native, json, react, or codeAct() from thinkflow/code.`,
    });
  }
  return protocol;
}

/**
 * The protocol with this name. Throws a ConfigError naming the valid choices for any other name
 * (a person fixes that, not the model).
 *
 * @example
 * const protocol = getProtocol('react');
 */
export function getProtocol(name: ProtocolName): Protocol {
  if (name === 'code') return codeProtocol;
  if (!Object.hasOwn(CORE, name)) {
    throw new ConfigError({ message: `Unknown protocol "${String(name)}". Use one of: native, json, react, code.` });
  }
  return CORE[name];
}
