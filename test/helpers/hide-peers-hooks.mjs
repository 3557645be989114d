// The ESM half of hide-peers.mjs: a resolve hook that refuses the hidden packages.
let hidden = [];

export function initialize(data) {
  hidden = data;
}

export async function resolve(specifier, context, next) {
  const name = hidden.find((n) => specifier === n || specifier.startsWith(`${n}/`));
  if (name) {
    const error = new Error(`Cannot find package '${name}' imported from ${context.parentURL}`);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}
