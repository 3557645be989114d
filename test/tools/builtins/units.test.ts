import { describe, expect, it } from 'vitest';
import { convertUnits, convertUnitsTool } from '../../../src/tools/builtins/units.js';
import { runTool } from './run-tool.js';

describe('convert_units', () => {
  it.each([
    [5, 'km', 'm', 5000],
    [100, 'degC', 'degF', 212],
    [60, 'mi/h', 'km/h', 96.56064],
    [1, 'kWh', 'J', 3_600_000],
    [2, 'lb', 'kg', 0.90718474],
  ])('%s %s in %s is %s', (value, from, to, expected) => {
    expect(convertUnits(value, from, to)).toBeCloseTo(expected, 6);
  });

  it('answers as a sentence with float noise rounded away', async () => {
    expect(await runTool(convertUnitsTool(), { value: 100, from: 'degC', to: 'degF' })).toBe('100 degC = 212 degF');
  });

  it('names unknown and mismatched units', async () => {
    await expect(runTool(convertUnitsTool(), { value: 1, from: 'florps', to: 'm' })).rejects.toThrow(
      /Unknown unit "florps"/,
    );
    await expect(runTool(convertUnitsTool(), { value: 1, from: 'kg', to: 'm' })).rejects.toThrow(/different things/);
    await expect(runTool(convertUnitsTool(), { value: 1, from: 'm', to: 'blargs' })).rejects.toThrow(
      /Unknown unit "blargs"/,
    );
  });

  it('does not evaluate expressions in unit strings', async () => {
    await expect(runTool(convertUnitsTool(), { value: 1, from: 'm', to: 'import("fs")' })).rejects.toThrow(
      /Unknown unit|Cannot convert/,
    );
    await expect(runTool(convertUnitsTool(), { value: 1, from: '1+1', to: 'm' })).rejects.toThrow(
      /Unknown unit|Cannot convert/,
    );
  });
});
