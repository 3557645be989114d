/** The languages the workspace tools speak. */
export type ToolLanguage = 'en' | 'zh';

/** Every description and message the workspace tools show the model, in English and Chinese. */
export const TOOL_TEXTS = {
  en: {
    bash: 'Run a bash script in the workspace (its root is the working folder). Returns the exit code, stdout and stderr; long output is cut and marked. Use it for shell tools: ls, cat, grep, awk, sort, wc, python3, etc.',
    bashCommand: 'The bash script to run, e.g. "wc -l data/*.csv".',
    cwd: 'Folder to run in, relative to the workspace root.',
    timeoutMs: 'Milliseconds before the command is killed (at most the workspace limit).',
    readFile:
      'Read a text file of the workspace, with line numbers. Long files come a page at a time: pass offset (first line, 1-based) and limit (lines) to read further.',
    path: 'Path relative to the workspace root, e.g. "data/sales.csv".',
    offset: 'First line to read, 1-based. Default 1.',
    limit: 'Lines to read. Default 400.',
    writeFile: 'Write a text file in the workspace (creating its folders), replacing what was there.',
    content: 'The whole new content of the file.',
    editFile:
      'Replace an exact string in a file. old_string must occur exactly once (or pass replace_all); read the file first and copy the text exactly, with enough context to be unique.',
    oldString: 'The exact text to replace.',
    newString: 'The text to put in its place.',
    replaceAll: 'Replace every occurrence instead of requiring exactly one.',
    glob: 'Find files by glob pattern, e.g. "**/*.csv" or "src/*.{ts,js}". Returns paths relative to the root.',
    pattern: 'Glob pattern.',
    grep: 'Search file contents with a regular expression (ripgrep). Returns matching lines as path:line:text.',
    regex: 'Regular expression to search for.',
    grepPath: 'File or folder to search in, relative to the root. Default: the whole workspace.',
    grepGlob: 'Only search files matching this glob, e.g. "*.csv".',
    ignoreCase: 'Match without regard to case.',
    ls: 'List a folder of the workspace: names, types and sizes.',
    lsPath: 'Folder relative to the root. Default: the root.',
    denied: (reason: string) => `Command refused: ${reason}. Do it another way, or ask the user.`,
    notFound: (path: string) =>
      `old_string was not found in ${path}. Read the file and copy the text exactly (spaces and line breaks included).`,
    notUnique: (path: string, count: number) =>
      `old_string occurs ${count} times in ${path}. Add surrounding lines to make it unique, or pass replace_all: true.`,
    same: 'old_string and new_string are the same; nothing to change.',
    edited: (path: string, count: number) => `Edited ${path}: ${count} replacement${count === 1 ? '' : 's'}.`,
    wrote: (path: string, bytes: number) => `Wrote ${path} (${bytes} bytes).`,
    moreLines: (from: number, total: number) =>
      `[... lines ${from}-${total} not shown; read_file with offset ${from} returns them]`,
    empty: '(empty)',
    noMatches: 'No matches.',
    noFiles: 'No files match.',
  },
  zh: {
    bash: '在工作区中运行 bash 脚本（工作目录为工作区根目录）。返回退出码、标准输出和标准错误；过长的输出会被截断并标明。用于 ls、cat、grep、awk、sort、wc、python3 等命令行工具。',
    bashCommand: '要运行的 bash 脚本，例如 "wc -l 数据/*.csv"。',
    cwd: '运行所在的文件夹，相对于工作区根目录。',
    timeoutMs: '命令被终止前的毫秒数（不超过工作区上限）。',
    readFile:
      '读取工作区中的文本文件，带行号。长文件分页返回：传入 offset（起始行，从 1 开始）和 limit（行数）继续读取。',
    path: '相对于工作区根目录的路径，例如 "数据/销售.csv"。',
    offset: '起始行，从 1 开始。默认 1。',
    limit: '读取的行数。默认 400。',
    writeFile: '在工作区中写入文本文件（自动创建文件夹），覆盖原有内容。',
    content: '文件的完整新内容。',
    editFile:
      '替换文件中的一段精确文本。old_string 必须恰好出现一次（或传入 replace_all）；请先读取文件并精确复制文本，带上足够的上下文以保证唯一。',
    oldString: '要替换的精确文本。',
    newString: '替换后的文本。',
    replaceAll: '替换所有出现之处，而不要求恰好一次。',
    glob: '按 glob 模式查找文件，例如 "**/*.csv" 或 "src/*.{ts,js}"。返回相对于根目录的路径。',
    pattern: 'glob 模式。',
    grep: '用正则表达式搜索文件内容（ripgrep）。以 路径:行号:文本 的形式返回匹配行。',
    regex: '要搜索的正则表达式。',
    grepPath: '要搜索的文件或文件夹，相对于根目录。默认：整个工作区。',
    grepGlob: '只搜索匹配该 glob 的文件，例如 "*.csv"。',
    ignoreCase: '不区分大小写。',
    ls: '列出工作区中某个文件夹的内容：名称、类型和大小。',
    lsPath: '相对于根目录的文件夹。默认：根目录。',
    denied: (reason: string) => `命令被拒绝：${reason}。请换一种做法，或询问用户。`,
    notFound: (path: string) => `在 ${path} 中找不到 old_string。请先读取文件并精确复制文本（包括空格和换行）。`,
    notUnique: (path: string, count: number) =>
      `old_string 在 ${path} 中出现了 ${count} 次。请加入前后几行使其唯一，或传入 replace_all: true。`,
    same: 'old_string 与 new_string 相同，无需修改。',
    edited: (path: string, count: number) => `已编辑 ${path}：替换 ${count} 处。`,
    wrote: (path: string, bytes: number) => `已写入 ${path}（${bytes} 字节）。`,
    moreLines: (from: number, total: number) =>
      `[... 第 ${from}-${total} 行未显示；用 read_file 并传入 offset ${from} 继续读取]`,
    empty: '（空）',
    noMatches: '没有匹配。',
    noFiles: '没有匹配的文件。',
  },
} as const;

/** The texts of one language. */
export type ToolTexts = (typeof TOOL_TEXTS)[ToolLanguage];
