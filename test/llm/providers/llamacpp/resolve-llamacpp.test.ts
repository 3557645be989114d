import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../src/core/index.js';
import { MODEL_SPEC_FORMS, resolveModel } from '../../../../src/llm/index.js';

describe('resolveModel llamacpp:PATH.gguf', () => {
  it('builds a lazy local model without loading anything', () => {
    const dir = mkdtempSync(join(tmpdir(), 'thinkflow-spec-'));
    try {
      const file = join(dir, 'm.gguf');
      writeFileSync(file, 'not loaded until the first call');
      const model = resolveModel(`llamacpp:${file}`, {});
      expect(model.id).toBe(`llamacpp:${file}`);
      expect(model.capabilities).toEqual({ nativeTools: false, streaming: true, images: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the fix for a missing file or path', () => {
    expect(() => resolveModel('llamacpp:/nowhere/x.gguf', {})).toThrow(ConfigError);
    expect(() => resolveModel('llamacpp:/nowhere/x.gguf', {})).toThrow(
      /No GGUF file at \/nowhere\/x\.gguf.*models pull/,
    );
    expect(() => resolveModel('llamacpp:', {})).toThrow(/expected llamacpp:PATH\.gguf/);
    expect(MODEL_SPEC_FORMS.join('\n')).toContain('llamacpp:PATH.gguf');
  });
});
