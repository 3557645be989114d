export type { Model, ModelCapabilities } from './model.js';
export {
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReply,
  type ScriptFunction,
  scriptedModel,
} from './scripted-model.js';
