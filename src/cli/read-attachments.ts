import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { ConfigError, type ContentPart } from '../core/index.js';

const MEDIA_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.md': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
};

/** Collects a repeatable commander option into a list. */
export function collectFlag(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * Reads `--attach FILE` flags into image and file parts, by extension. A missing file or a type no
 * provider reads is a ConfigError naming the types that work.
 */
export function readAttachments(files: readonly string[] = []): Exclude<ContentPart, { type: 'text' }>[] {
  return files.map((file) => {
    const mediaType = MEDIA_TYPES[extname(file).toLowerCase()];
    if (!mediaType) {
      throw new ConfigError({
        message: `--attach ${file}: unknown file type. Attach ${Object.keys(MEDIA_TYPES).join(', ')} files.`,
      });
    }
    let data: string;
    try {
      data = readFileSync(file).toString('base64');
    } catch (cause) {
      throw new ConfigError({ message: `--attach ${file}: cannot read the file; check the path.`, cause });
    }
    return mediaType.startsWith('image/') ? { type: 'image', data, mediaType } : { type: 'file', data, mediaType };
  });
}
