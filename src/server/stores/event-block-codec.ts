import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * How the SQLite store packs a block of events: JSON, deflated with a preset dictionary of the
 * keys and values every event log repeats, behind a one-byte format tag. A block written by a live
 * run (a model streaming) often holds one short event, which deflate alone cannot shrink; the
 * dictionary lets even those refer to `{"type":"model_delta","ts":` instead of spelling it out.
 * Blocks stored as text (before packing) read as they are. The dictionary of a tag never changes:
 * a new one takes a new tag.
 */
const PACKED_V1 = 1;

const DICTIONARY_V1 = Buffer.from(
  [
    '"parentRunId":"',
    '{"type":"run_end","ts":',
    ',"status":"done","output":"',
    ',"usage":{"promptTokens":',
    ',"completionTokens":',
    ',"llmCalls":',
    ',"costUsd":',
    ',"durationMs":',
    '{"type":"final","ts":',
    '{"type":"warning","ts":',
    '{"type":"invalid_output","ts":',
    '{"type":"context_summary","ts":',
    '{"type":"run_start","ts":',
    ',"input":"',
    ',"model":"',
    ',"protocol":"native","tools":["',
    '{"type":"thought","ts":',
    '{"type":"observation","ts":',
    '{"type":"tool_start","ts":',
    '{"type":"tool_end","ts":',
    ',"callId":"',
    ',"tool":"',
    ',"ms":',
    ',"ok":true,"output":"',
    '{"type":"step_start","ts":',
    '{"type":"model_request","ts":',
    ',"messages":{"from":',
    ',"parts":[[0,',
    '{"role":"system","content":"',
    '{"role":"user","content":"',
    '{"role":"assistant","content":"',
    '{"role":"tool","toolCallId":"',
    ',"name":"',
    ',"toolCalls":[{"id":"',
    ',"arguments":"{\\"',
    ',"tools":{"from":',
    '{"type":"model_response","ts":',
    ',"modelId":"',
    ',"text":"',
    '{"type":"model_delta","ts":',
    ',"step":',
  ].join(''),
);

/**
 * A commit writes one small block per run (about 400 bytes, ten per five-step run), so what a
 * deflate call costs is mostly setting it up: zlib's default 32 KiB window and 64 KiB hash table are
 * cleared on every call. A window just large enough for the dictionary and the block finds the same
 * matches, and a smaller hash table and output chunk cost less to set up; together they halve the
 * time per block. Inflating reads any window size up to 32 KiB, so blocks read back the same.
 */
const MIN_WINDOW_BITS = 11;
const MAX_WINDOW_BITS = 15;
const MEM_LEVEL = 5;

/** A block of stored events as the bytes kept in `run_event_blocks.events`. */
export function packEvents(events: unknown[]): Buffer {
  const json = Buffer.from(JSON.stringify(events));
  const needed = Math.ceil(Math.log2(json.length + DICTIONARY_V1.length));
  const deflated = deflateRawSync(json, {
    level: 6,
    dictionary: DICTIONARY_V1,
    windowBits: Math.min(MAX_WINDOW_BITS, Math.max(MIN_WINDOW_BITS, needed)),
    memLevel: MEM_LEVEL,
    // The output is about a third of the input; the default 16 KiB chunk is mostly unused.
    chunkSize: Math.max(1024, json.length + 64),
  });
  return Buffer.concat([Buffer.of(PACKED_V1), deflated]);
}

/** The JSON text of a stored block, packed or (written before packing) plain. */
export function unpackEvents(stored: string | Buffer): string {
  if (typeof stored === 'string') return stored;
  if (stored[0] !== PACKED_V1) throw new Error(`Stored events in an unknown format (tag ${stored[0]}).`);
  return inflateRawSync(stored.subarray(1), { dictionary: DICTIONARY_V1 }).toString('utf8');
}
