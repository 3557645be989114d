// Tool routing at scale: the index of tools and the router that offers the few a step needs.

export { SEARCH_LIMIT, SEARCH_TOOLS, type SearchToolContext } from './search-tool.js';
export { ToolIndex } from './tool-index.js';
export { createToolRouter, type ToolRouter, type ToolRoutingOptions } from './tool-router.js';
