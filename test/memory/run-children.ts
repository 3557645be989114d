import { spawn } from 'node:child_process';
import { once } from 'node:events';

/**
 * Starts node scripts as child processes, waits until each printed "ready", then tells them all
 * "go" at once, so their writes overlap. Resolves when all exited 0.
 */
export async function runTogether(script: string, argsList: string[][]): Promise<void> {
  const children = argsList.map((args) =>
    spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] }),
  );
  const stderr = children.map(() => '');
  children.forEach((child, i) => {
    child.stderr.on('data', (d: Buffer) => {
      stderr[i] += d.toString();
    });
  });
  await Promise.all(
    children.map(
      (child, i) =>
        new Promise<void>((resolve, reject) => {
          child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
          child.on('exit', (code) => reject(new Error(`child exited ${code} before ready: ${stderr[i]}`)));
        }),
    ),
  );
  const exits = children.map((child) => once(child, 'exit'));
  for (const child of children) child.stdin.write('go\n');
  const codes = await Promise.all(exits);
  codes.forEach(([code], i) => {
    if (code !== 0) throw new Error(`child ${i} exited ${code}: ${stderr[i]}`);
  });
}
