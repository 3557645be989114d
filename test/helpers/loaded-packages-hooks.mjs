// The hook half of loaded-packages.mjs: records every module URL that loads.
import { appendFileSync } from 'node:fs';

let log;

export function initialize(data) {
  log = data.log;
  appendFileSync(log, '');
}

export async function load(url, context, next) {
  appendFileSync(log, `${url}\n`);
  return next(url, context);
}
