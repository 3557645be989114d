/**
 * A provider's arguments string as the object it holds, when it is strict JSON for an object;
 * anything else (JSON-ish text, a bare value, an empty string) stays the raw string for the tool
 * layer to repair or coerce. Parsing here once saves the guards and the executor parsing it again.
 *
 * @example
 * readArguments('{"city":"Paris"}'); // { city: 'Paris' }
 * readArguments("{city: 'Paris',}"); // "{city: 'Paris',}"
 */
export function readArguments(raw: string): unknown {
  if (typeof raw !== 'string' || raw.charCodeAt(0) !== 123 /* { */) return raw;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : raw;
  } catch {
    return raw;
  }
}
