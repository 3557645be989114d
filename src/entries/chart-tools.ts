/**
 * `thinkflow/tools/chart`: Vega-Lite charts rendered headless to SVG and PNG. Needs the optional peers
 * `vega`, `vega-lite`, `vega-interpreter` and `@resvg/resvg-js`.
 */
export { chartTools } from '../tools/node.js';
