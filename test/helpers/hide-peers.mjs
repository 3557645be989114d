// Preload (`node --import ./test/helpers/hide-peers.mjs`) that makes the packages named in HIDE_PEERS
// (comma-separated) look uninstalled to both resolvers, the way a user's app without them sees them:
// `require` throws MODULE_NOT_FOUND, `import()` throws ERR_MODULE_NOT_FOUND. node_modules is untouched.
import Module, { register } from 'node:module';

const hidden = (process.env.HIDE_PEERS ?? '').split(',').filter(Boolean);
const hiddenName = (specifier) => hidden.find((name) => specifier === name || specifier.startsWith(`${name}/`));

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (hiddenName(request)) {
    const error = new Error(`Cannot find module '${request}'`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolveFilename.call(this, request, ...rest);
};

register('./hide-peers-hooks.mjs', import.meta.url, { data: hidden });
