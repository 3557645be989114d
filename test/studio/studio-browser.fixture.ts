// Starts `thinkflow studio` on the fixture config and a headless system Chromium, for the browser tests.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { type ServerProcess, spawnCli } from '../server/spawn-server.js';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
const ROOT = join(import.meta.dirname, '..', '..');
if (!hasChromium)
  console.warn(`Skipping the studio browser tests: ${CHROMIUM} is missing (apt-get install -y chromium).`);

/** The studio's bearer token in these tests (`thinkflow studio --token`); the page gets it from its URL. */
export const STUDIO_TOKEN = 'studio-fixture-token';
/** Headers for the test's own API calls to the studio server. */
export const STUDIO_AUTH = { authorization: `Bearer ${STUDIO_TOKEN}` };

export interface Studio {
  browser: Browser;
  server: ServerProcess;
  /** A temp dir, removed by `close`. */
  dir: string;
  /** Where screenshots go: docs/ with THINKFLOW_UPDATE_SCREENSHOTS=1, else a temp dir. */
  docs: string;
  /** A new page (its own profile: no token, no chat session) at `/studio#hash`, recording errors and requests. */
  open(hash?: string): Promise<{ page: Page; errors: string[]; requests: string[] }>;
  close(): Promise<void>;
}

/** Launches the system Chromium headless, with no background traffic. */
export function launchChromium(): Promise<Browser> {
  // launch() gives each browser a fresh temporary profile (it refuses an explicit --user-data-dir).
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Builds the bundle, spawns `thinkflow studio` on the fixture config in a temp dir, and launches Chromium. */
export async function startStudio(): Promise<Studio> {
  // The page script is built, as `npm run build` (the prepare script) does for the package.
  execFileSync('npm', ['run', 'build:studio'], { cwd: ROOT, stdio: 'ignore' });
  const dir = mkdtempSync(join(tmpdir(), 'thinkflow-studio-'));
  const server = await spawnCli(
    [
      'studio',
      '--config',
      join(import.meta.dirname, 'studio-config.fixture.ts'),
      '--port',
      '0',
      '--data-dir',
      dir,
      '--token',
      STUDIO_TOKEN,
    ],
    {},
  );
  const browser = await launchChromium();
  const docs = process.env.THINKFLOW_UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs') : join(dir, 'screenshots');
  mkdirSync(docs, { recursive: true });
  return {
    browser,
    server,
    dir,
    docs,
    async open(hash = '#chat') {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const errors: string[] = [];
      const requests: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('request', (request) => requests.push(request.url()));
      // As `thinkflow studio` prints it: the page keeps the token and drops it from the address.
      await page.goto(`${server.url}/studio?token=${STUDIO_TOKEN}${hash}`);
      return { page, errors, requests };
    },
    async close() {
      await browser.close();
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Asks `agent` a question in the chat form. */
export async function ask(page: Page, agent: string, question: string): Promise<void> {
  await page.selectOption('#chat-form select[name=agent]', agent);
  await page.fill('#chat-form input[name=question]', question);
  await page.click('#chat-form button[type=submit]');
}
