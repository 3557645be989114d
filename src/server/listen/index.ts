/** Binding a port on Node (node:http through @hono/node-server): the one server room that is Node-only. */
export { listenHttp } from './listen-http.js';
