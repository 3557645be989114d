import type { Model } from '../../llm/index.js';
import type { ToolRouter, ToolRoutingOptions } from '../routing/index.js';
import { featureFix, loadOlderFeature } from './older-options.js';

/** A run's tool router, or the warning that it could not be loaded. */
export interface Routing {
  router?: ToolRouter;
  warning?: { code: string; message: string };
}

const NO_ROUTING: Routing = Object.freeze({});

/** What picks an agent's router: its `toolRouting` option, its model, how many tools it has, and the router once loaded. */
export interface RoutingChoice {
  routing: ToolRouter | ToolRoutingOptions | false | undefined;
  model: Model;
  toolCount: number;
  /** The agent's own slot for the router its first run loaded (an options object, or routing by default). */
  cache: { loaded?: Promise<ToolRouter> };
}

/**
 * The agent's tool router, when it has more tools than its `minTools` (20 by default): the one given, or
 * one made from a `toolRouting` options object or by default, by the router's module loaded on first use.
 * Where it cannot be loaded (a bundle), the default routes nothing and says so in a warning. No promise
 * unless the module has to be loaded.
 */
export function routingFor(choice: RoutingChoice): Routing | Promise<Routing> {
  const { routing, toolCount } = choice;
  // A provider with native tool search (deferred loading) gets every tool and finds them itself.
  if (routing === false || choice.model.capabilities.toolSearch) return NO_ROUTING;
  if (isRouter(routing)) return toolCount > (routing.options.minTools ?? 20) ? { router: routing } : NO_ROUTING;
  if (toolCount <= (routing?.minTools ?? 20)) return NO_ROUTING;
  return loadRouter(choice, routing);
}

async function loadRouter(
  { cache, toolCount }: RoutingChoice,
  routing: ToolRoutingOptions | undefined,
): Promise<Routing> {
  const what = routing ? 'toolRouting: { ... }' : 'Routing';
  cache.loaded ??= loadOlderFeature('router', what).then((m) => m.createToolRouter(routing));
  if (routing) return { router: await cache.loaded };
  try {
    return { router: await cache.loaded };
  } catch {
    const message = `${toolCount} tools, not routed: routing is not in this bundle. ${featureFix('router')}, or toolRouting: false.`;
    return { warning: { code: 'tool_routing', message } };
  }
}

/** A router made by createToolRouter(), not the options object `toolRouting` took before. */
function isRouter(routing: ToolRouter | ToolRoutingOptions | undefined): routing is ToolRouter {
  return typeof (routing as ToolRouter | undefined)?.route === 'function';
}
