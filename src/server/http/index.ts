/** HTTP plumbing every route shares: API errors, the request scope, request bodies, client disconnects (portable: no Node built-in). */
export { isClientGone } from './client-gone.js';
export { closeIfBodyUnread, closeUnreadBody } from './close-unread-body.js';
export {
  type ApiErrorCode,
  apiError,
  errorBody,
  errorStatus,
  httpExceptionError,
  MAX_BODY_DEPTH,
  NO_RETRY,
  nestingDepth,
  readBody,
  readQuery,
  runFailed,
} from './http-error.js';
export {
  bodyText,
  DRAIN_MS,
  decodeUtf8,
  type LimitBodyOptions,
  type LimitedBody,
  limitBody,
  readLimitedBody,
  withConnectionClose,
} from './limited-body.js';
export { type Caller, currentScope, type RequestScope, runInScope } from './request-scope.js';
