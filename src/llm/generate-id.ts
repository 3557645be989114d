/** A fresh tool-call id, for servers (llama.cpp, Ollama, some vLLM builds) that send calls without one. */
export function generateToolCallId(): string {
  return `call_${crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`;
}
