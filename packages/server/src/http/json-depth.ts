/**
 * Whether a parsed JSON value nests arrays and objects more than `maxDepth` levels deep. Iterative
 * (an explicit stack), so a hostile body cannot overflow the call stack here, and it stops at the
 * first value past the bound; later recursive work (serialising, validating) then only sees values
 * this has passed.
 */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (item.value === null || typeof item.value !== "object") continue;
    const depth = item.depth + 1;
    if (depth > maxDepth) return true;
    const children = Array.isArray(item.value) ? item.value : Object.values(item.value);
    for (const child of children) {
      if (child !== null && typeof child === "object") stack.push({ value: child, depth });
    }
  }
  return false;
}
