import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * SHA-256 of a string's UTF-8 bytes, as lower-case hex. Synchronous and the same on every runtime
 * (Web Crypto's digest is async, node:crypto is Node's), for keys and fingerprints computed in line.
 */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}
