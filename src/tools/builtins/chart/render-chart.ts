import type * as vega from 'vega';
import type * as vegaLite from 'vega-lite';
import { importOptional } from '../../../core/index.js';
import type { VegaLoader } from './safe-vega-loader.js';

/** A rendered chart: the SVG text and the PNG bytes. */
export interface RenderedChart {
  svg: string;
  png: Uint8Array;
}

/**
 * Compiles a Vega-Lite spec and renders it server-side, headless, to SVG and PNG. Expressions in the spec
 * are interpreted (vega-interpreter), never compiled to JavaScript, and data comes only through `loader`.
 */
export async function renderVegaLite(spec: Record<string, unknown>, loader: VegaLoader): Promise<RenderedChart> {
  // The renderers load on the first chart, not at import: together they take seconds to load.
  const [vega, vegaLite, { expressionInterpreter }, { Resvg }] = await Promise.all([
    importOptional<typeof import('vega')>('chart', 'vega'),
    importOptional<typeof import('vega-lite')>('chart', 'vega-lite'),
    importOptional<typeof import('vega-interpreter')>('chart', 'vega-interpreter'),
    importOptional<typeof import('@resvg/resvg-js')>('chart', '@resvg/resvg-js'),
  ]);
  let compiled: vega.Spec;
  try {
    compiled = vegaLite.compile(spec as unknown as vegaLite.TopLevelSpec).spec;
  } catch (error) {
    throw new Error(`Invalid Vega-Lite spec: ${error instanceof Error ? error.message : String(error)}`);
  }
  const view = new vega.View(vega.parse(compiled, undefined, { ast: true }), {
    renderer: 'none',
    expr: expressionInterpreter,
    loader: loader as unknown as vega.Loader,
  });
  try {
    const svg = await view.toSVG();
    if (loader.failures.length > 0) throw new Error(loader.failures[0]);
    const png = new Resvg(svg, {
      background: 'white',
      fitTo: { mode: 'zoom', value: 2 },
      font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
    })
      .render()
      .asPng();
    return { svg, png };
  } finally {
    view.finalize();
  }
}
