import { errorMessage } from '../../core/index.js';

/** What `GET /ready` answers: whether every dependency answered, and each one's result. */
export interface Readiness {
  ok: boolean;
  checks: Record<string, { ok: true } | { ok: false; error: string }>;
}

/**
 * Readiness from named checks (each resolves when its dependency answers), run together and cached for
 * `ttlMs`, so a load balancer polling `/ready` often costs one round trip per dependency per interval.
 */
export function readinessOf(checks: Record<string, () => Promise<unknown>>, ttlMs = 1000): () => Promise<Readiness> {
  let cached: { at: number; value: Promise<Readiness> } | undefined;
  const check = async (): Promise<Readiness> => {
    const entries = await Promise.all(
      Object.entries(checks).map(async ([name, run]) => {
        try {
          await run();
          return [name, { ok: true }] as const;
        } catch (error) {
          return [name, { ok: false, error: errorMessage(error) }] as const;
        }
      }),
    );
    return { ok: entries.every(([, result]) => result.ok), checks: Object.fromEntries(entries) };
  };
  return () => {
    const now = Date.now();
    if (!cached || now - cached.at > ttlMs) cached = { at: now, value: check() };
    return cached.value;
  };
}
