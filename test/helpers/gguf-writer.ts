/**
 * Writes GGUF v3 files, and a tiny random-weight llama model with a byte-level BPE (`gpt2`) vocabulary
 * and a ChatML chat template, small enough to build in a test and load with the real llama.cpp runtime.
 * Spec: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
 */
import { writeFileSync } from 'node:fs';
import { mulberry32 } from '../../src/llm/index.js';

/** A metadata value with its GGUF type. */
export type GgufValue =
  | { type: 'u32'; value: number }
  | { type: 'i32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'string[]'; value: string[] }
  | { type: 'i32[]'; value: number[] }
  | { type: 'f32[]'; value: number[] };

/** An F32 tensor. `dims` are in GGUF order: the fastest-varying (row length) first. */
export interface GgufTensor {
  name: string;
  dims: number[];
  data: Float32Array;
}

const ALIGNMENT = 32;
const T = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;

class ByteSink {
  private chunks: Buffer[] = [];
  length = 0;
  push(buffer: Buffer): void {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  u32(v: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  i32(v: number) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.push(b);
  }
  u64(v: number) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  f32(v: number) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
  }
  str(s: string) {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  pad(to: number) {
    const rest = this.length % to;
    if (rest) this.push(Buffer.alloc(to - rest));
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function writeValue(sink: ByteSink, value: GgufValue): void {
  switch (value.type) {
    case 'u32':
      sink.u32(T.u32);
      sink.u32(value.value);
      return;
    case 'i32':
      sink.u32(T.i32);
      sink.i32(value.value);
      return;
    case 'f32':
      sink.u32(T.f32);
      sink.f32(value.value);
      return;
    case 'bool':
      sink.u32(T.bool);
      sink.push(Buffer.from([value.value ? 1 : 0]));
      return;
    case 'string':
      sink.u32(T.string);
      sink.str(value.value);
      return;
    case 'string[]':
      sink.u32(T.array);
      sink.u32(T.string);
      sink.u64(value.value.length);
      for (const s of value.value) sink.str(s);
      return;
    case 'i32[]':
      sink.u32(T.array);
      sink.u32(T.i32);
      sink.u64(value.value.length);
      for (const v of value.value) sink.i32(v);
      return;
    case 'f32[]':
      sink.u32(T.array);
      sink.u32(T.f32);
      sink.u64(value.value.length);
      for (const v of value.value) sink.f32(v);
      return;
  }
}

/** Encodes a GGUF v3 file: header, metadata, tensor infos, then 32-byte aligned F32 tensor data. */
export function encodeGguf(metadata: Array<[string, GgufValue]>, tensors: GgufTensor[]): Buffer {
  const sink = new ByteSink();
  sink.push(Buffer.from('GGUF', 'ascii'));
  sink.u32(3);
  sink.u64(tensors.length);
  sink.u64(metadata.length);
  for (const [key, value] of metadata) {
    sink.str(key);
    writeValue(sink, value);
  }
  let offset = 0;
  for (const tensor of tensors) {
    const count = tensor.dims.reduce((a, b) => a * b, 1);
    if (count !== tensor.data.length) throw new Error(`${tensor.name}: ${count} elements expected`);
    sink.str(tensor.name);
    sink.u32(tensor.dims.length);
    for (const d of tensor.dims) sink.u64(d);
    sink.u32(0); // GGML_TYPE_F32
    sink.u64(offset);
    offset += Math.ceil((count * 4) / ALIGNMENT) * ALIGNMENT;
  }
  sink.pad(ALIGNMENT);
  for (const tensor of tensors) {
    sink.push(Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    sink.pad(ALIGNMENT);
  }
  return sink.bytes();
}

/** GPT-2's reversible byte → printable character map, used by byte-level BPE vocabularies. */
export function byteToUnicode(): string[] {
  const printable: number[] = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  const map: string[] = [];
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    map[b] = String.fromCodePoint(printable.includes(b) ? b : 256 + extra++);
  }
  return map;
}

/** Options for the tiny model. */
export interface TinyLlamaOptions {
  /** Seed of the weights (default 1). */
  seed?: number;
  /** Training context length written in the metadata (default 256). */
  contextLength?: number;
  /** Tokens (a one-byte character or a special token) the model leans towards when allowed, with their weight. Default `{ '"': 2, '}': 1, ']': 1 }`. */
  prefer?: Record<string, number>;
  /** Leave out the chat template (default: a ChatML template is included). */
  noChatTemplate?: boolean;
}

export const TINY = { embd: 64, layers: 2, heads: 4, ff: 128 } as const;
const MERGES = [
  ['a', 'b'],
  ['c', 'd'],
  ['e', 'f'],
  ['g', 'h'],
];
export const SPECIAL = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'];

const CHATML =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/**
 * Writes a tiny llama model (2 layers, 64 dims, ~263 tokens) with random weights. Every byte is a
 * token, so any text tokenizes; a constant feature in the embeddings plus the output weights make
 * the `prefer` characters the likeliest next tokens, so greedy grammar-constrained decoding ends
 * strings quickly instead of wandering for hundreds of tokens.
 */
export function writeTinyLlamaGguf(path: string, options: TinyLlamaOptions = {}): { vocabSize: number } {
  const random = mulberry32(options.seed ?? 1);
  const normal = (scale: number) => (random() * 2 - 1) * scale;
  const bytes = byteToUnicode();
  const tokens = [...bytes, ...MERGES.map(([a, b]) => bytes[a.charCodeAt(0)] + bytes[b.charCodeAt(0)]), ...SPECIAL];
  const types = tokens.map((_, i) => (i >= tokens.length - SPECIAL.length ? 3 : 1));
  const vocab = tokens.length;
  const { embd, layers, heads, ff } = TINY;
  const tokenId = (token: string) => (token.length === 1 ? token.charCodeAt(0) : tokens.indexOf(token));
  const prefer = new Map(Object.entries(options.prefer ?? { '"': 2, '}': 1, ']': 1 }).map(([t, w]) => [tokenId(t), w]));

  const fill = (n: number, f: (i: number) => number) => Float32Array.from({ length: n }, (_, i) => f(i));
  const matrix = (cols: number, rows: number, scale = 0.02) => fill(cols * rows, () => normal(scale));
  const ones = (n: number) => fill(n, () => 1);

  const tensors: GgufTensor[] = [
    {
      name: 'token_embd.weight',
      dims: [embd, vocab],
      data: fill(embd * vocab, (i) => (i % embd === 0 ? 1 : normal(0.02))),
    },
    { name: 'output_norm.weight', dims: [embd], data: ones(embd) },
    {
      name: 'output.weight',
      dims: [embd, vocab],
      data: fill(embd * vocab, (i) => (i % embd === 0 ? (prefer.get(Math.floor(i / embd)) ?? 0) : normal(0.02))),
    },
  ];
  for (let l = 0; l < layers; l++) {
    const p = `blk.${l}.`;
    tensors.push(
      { name: `${p}attn_norm.weight`, dims: [embd], data: ones(embd) },
      { name: `${p}attn_q.weight`, dims: [embd, embd], data: matrix(embd, embd) },
      { name: `${p}attn_k.weight`, dims: [embd, embd], data: matrix(embd, embd) },
      { name: `${p}attn_v.weight`, dims: [embd, embd], data: matrix(embd, embd) },
      { name: `${p}attn_output.weight`, dims: [embd, embd], data: matrix(embd, embd) },
      { name: `${p}ffn_norm.weight`, dims: [embd], data: ones(embd) },
      { name: `${p}ffn_gate.weight`, dims: [embd, ff], data: matrix(embd, ff) },
      { name: `${p}ffn_up.weight`, dims: [embd, ff], data: matrix(embd, ff) },
      { name: `${p}ffn_down.weight`, dims: [ff, embd], data: matrix(ff, embd) },
    );
  }

  const metadata: Array<[string, GgufValue]> = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: 'thinkflow-tiny-test' }],
    ['general.alignment', { type: 'u32', value: ALIGNMENT }],
    ['llama.context_length', { type: 'u32', value: options.contextLength ?? 256 }],
    ['llama.embedding_length', { type: 'u32', value: embd }],
    ['llama.block_count', { type: 'u32', value: layers }],
    ['llama.feed_forward_length', { type: 'u32', value: ff }],
    ['llama.attention.head_count', { type: 'u32', value: heads }],
    ['llama.attention.head_count_kv', { type: 'u32', value: heads }],
    ['llama.rope.dimension_count', { type: 'u32', value: embd / heads }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'f32', value: 1e-5 }],
    ['llama.vocab_size', { type: 'u32', value: vocab }],
    ['tokenizer.ggml.model', { type: 'string', value: 'gpt2' }],
    ['tokenizer.ggml.pre', { type: 'string', value: 'default' }],
    ['tokenizer.ggml.tokens', { type: 'string[]', value: tokens }],
    ['tokenizer.ggml.token_type', { type: 'i32[]', value: types }],
    [
      'tokenizer.ggml.merges',
      { type: 'string[]', value: MERGES.map(([a, b]) => `${bytes[a.charCodeAt(0)]} ${bytes[b.charCodeAt(0)]}`) },
    ],
    ['tokenizer.ggml.bos_token_id', { type: 'u32', value: vocab - 3 }],
    ['tokenizer.ggml.eos_token_id', { type: 'u32', value: vocab - 1 }],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: false }],
  ];
  if (!options.noChatTemplate) metadata.push(['tokenizer.chat_template', { type: 'string', value: CHATML }]);
  writeFileSync(path, encodeGguf(metadata, tensors));
  return { vocabSize: vocab };
}
