import type MiniSearch from 'minisearch';
import { z } from 'zod';
import { analyzeText, assertPeers, isCjkToken, plural, requireOptional } from '../../../core/index.js';
import { defineTool, type Tool } from '../../tool.js';
import { capText } from '../shared/cap-text.js';
import { type LoadLimits, loadPassages, type Passage, snapshotFolder } from './load-documents.js';

/** Options for `searchDocumentsTool`. */
export interface SearchDocumentsOptions {
  /** Folder of documents. */
  root: string;
  /** File extensions indexed. Default: .md, .markdown, .txt, .rst, .html, .htm, .csv, .json. */
  extensions?: string[];
  /** Files indexed at most. Default 5000. */
  maxFiles?: number;
  /** Bytes read per file. Default 1 MiB. */
  maxBytesPerFile?: number;
  /** Characters of output at most. Default 8000. */
  maxOutputChars?: number;
}

const SearchInput = z.object({
  query: z.string().min(1).describe('Words to search for.'),
  limit: z.number().int().min(1).max(20).default(5).describe('Passages to return.'),
});

/** MiniSearch (an optional peer, checked when the tool is made), loaded with the first search. */
const loadMiniSearch = () => requireOptional<typeof MiniSearch>('search', 'minisearch');

/** The analysis every BM25 path shares (Chinese and Japanese split into words), then MiniSearch's own tokenizer as before. */
const analyzed = (text: string): string[] => loadMiniSearch().getDefault('tokenize')(analyzeText(text));

const DEFAULT_EXTENSIONS = ['.md', '.markdown', '.txt', '.rst', '.html', '.htm', '.csv', '.json'];

/**
 * `search_documents`: offline full-text search (MiniSearch, BM25+ ranking, prefix and fuzzy matching) over
 * the text files of a folder. The folder is indexed on first use and re-indexed when its files change.
 * Needs the optional peer `minisearch` (`npm install minisearch`).
 *
 * @example
 * const search = searchDocumentsTool({ root: './docs' });
 */
export function searchDocumentsTool(options: SearchDocumentsOptions): Tool<z.infer<typeof SearchInput>, string> {
  assertPeers('search');
  const limits: LoadLimits = {
    extensions: options.extensions ?? DEFAULT_EXTENSIONS,
    maxFiles: options.maxFiles ?? 5000,
    maxBytesPerFile: options.maxBytesPerFile ?? 1024 * 1024,
  };
  let cached: { signature: string; index: MiniSearch<Passage>; files: number } | undefined;
  const index = async () => {
    const snapshot = await snapshotFolder(options.root, limits);
    if (cached?.signature === snapshot.signature) return cached;
    const Search = loadMiniSearch();
    const search = new Search<Passage>({
      fields: ['title', 'text'],
      storeFields: ['path', 'title', 'text'],
      tokenize: analyzed,
      searchOptions: { tokenize: analyzed },
    });
    search.addAll(await loadPassages(snapshot, limits));
    cached = { signature: snapshot.signature, index: search, files: snapshot.files.length };
    return cached;
  };
  return defineTool({
    name: 'search_documents',
    description: 'Search the local documents by keywords and return the best matching passages with their file paths.',
    input: SearchInput,
    idempotent: true,
    run: async (input) => {
      const { index: search, files } = await index();
      // Prefix and fuzzy matching are for Latin words; on CJK words they only match noise.
      const hits = search.search(input.query, {
        prefix: (term) => !isCjkToken(term),
        fuzzy: (term) => (isCjkToken(term) ? false : 0.2),
        boost: { title: 2 },
        combineWith: 'OR',
      });
      if (hits.length === 0) return `No passages match "${input.query}" (${plural(files, 'file')} searched).`;
      const out = hits.slice(0, input.limit).map((hit, i) => {
        const snippet = String(hit.text).replace(/\s+/g, ' ').slice(0, 600);
        return `${i + 1}. ${hit.path} (score ${hit.score.toFixed(2)})\n${snippet}`;
      });
      return capText(out.join('\n\n'), options.maxOutputChars ?? 8000);
    },
  });
}
