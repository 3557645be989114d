import type { MathJsInstance, Unit } from 'mathjs';
import { z } from 'zod';
import { requireDependency } from '../../core/index.js';
import type { AnyTool } from '../tool.js';
import { defineTool, type Tool } from '../tool.js';

let instance: MathJsInstance | undefined;

/** A dedicated mathjs instance with units only (no parser, no evaluate), loaded on first use: mathjs takes seconds to load. */
function units(): MathJsInstance {
  if (!instance) {
    const { create, unitDependencies } = requireDependency<typeof import('mathjs')>('mathjs');
    instance = create({ unitDependencies });
  }
  return instance;
}

const ConvertUnitsInput = z.object({
  value: z.number().describe('The amount to convert, e.g. 5.'),
  from: z.string().max(40).describe('Unit of the value, e.g. "km", "mi/h", "degC", "lb", "kWh".'),
  to: z.string().max(40).describe('Unit to convert to, e.g. "m", "km/h", "degF", "kg", "J".'),
});

/** Converts `value` from one unit to another with mathjs units; throws a readable message for unknown or mismatched units. */
export function convertUnits(value: number, from: string, to: string): number {
  let unit: Unit;
  try {
    unit = units().unit(value, from) as Unit;
  } catch {
    throw new Error(`Unknown unit "${from}"; use symbols like m, km, mi, kg, lb, degC, degF, s, h, J, kWh.`);
  }
  try {
    return unit.toNumber(to);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/not found/i.test(message)) throw new Error(`Unknown unit "${to}".`);
    throw new Error(`Cannot convert ${from} to ${to}: they measure different things.`);
  }
}

/** `convert_units`: unit conversion (length, mass, time, temperature, speed, energy, …). */
export function convertUnitsTool(): Tool<z.infer<typeof ConvertUnitsInput>, string> {
  return defineTool({
    name: 'convert_units',
    description: 'Convert a value between units, e.g. 5 km to mi, 100 degC to degF, 60 mi/h to km/h.',
    input: ConvertUnitsInput,
    idempotent: true,
    run: ({ value, from, to }) => `${value} ${from} = ${Number(convertUnits(value, from, to).toPrecision(12))} ${to}`,
  });
}

/** The units kit (`--tools units`). */
export function unitTools(): AnyTool[] {
  return [convertUnitsTool()];
}
