/** HTTP plumbing every route shares: API errors, the request scope, request bodies, client disconnects, listening. */
export { isClientGone } from './client-gone.js';
export { closeIfBodyUnread, closeUnreadBody } from './close-unread-body.js';
export {
  type ApiErrorCode,
  apiError,
  errorStatus,
  httpExceptionError,
  MAX_BODY_DEPTH,
  NO_RETRY,
  nestingDepth,
  readBody,
  readQuery,
  runFailed,
} from './http-error.js';
export { listenHttp } from './listen-http.js';
export { type Caller, currentScope, type RequestScope, runInScope } from './request-scope.js';
