/**
 * Bundling an app that uses `{ Agent, defineTool, openaiCompatible }` with esbuild's default options for
 * node (`--bundle --platform=node`, no externals): the bundle's size and build time, and whether the
 * bundle, copied alone into an empty folder, runs the custom-tool quickstart against a local
 * OpenAI-compatible server. Uses the built package (`npm run build` first).
 *
 * Run: npm run build && node --import tsx bench/bundle.bench.ts
 */
import { bundleQuickstart } from '../test/helpers/bundle-quickstart.js';

const result = await bundleQuickstart();
console.log(
  `esbuild --bundle --platform=node: ${(result.bytes / 1e3).toFixed(0)} kB in ${result.buildMs.toFixed(0)} ms, ${result.warnings} warnings`,
);
console.log(`the bundle, alone in an empty folder, printed: ${result.output}`);
