/**
 * A predicate check: user code, imported once. It gets the final output, the whole RunResult and the case,
 * and returns true to pass, or false / a string saying why it failed.
 */
export default function evenInRange(output) {
  const n = Number(output.trim());
  if (!Number.isInteger(n)) return `not a whole number: ${output}`;
  return (n % 2 === 0 && n > 40 && n < 50) || `${n} is not an even number between 40 and 50`;
}
