/** The server config: defineConfig, loading a config file, a config written as data. */
export type { AppSettings } from './app-settings.js';
export { defineConfig, type StoreConfig, type ThinkflowConfig } from './define-config.js';
export { loadConfig } from './load-config.js';
