/**
 * V8 holds the shape (hidden class) of a class's instances only while some instance has it, and the
 * optimized code of the methods that work on those instances depends on that shape. A hot class made
 * per stream (the SSE scanner, the turn sink) would lose both at each garbage collection between two
 * answers, and every answer would start again in slow code. One instance kept for the life of the
 * module keeps the shape, and with it the code, alive.
 */
const kept: object[] = [];

export function keepShape(instance: object): void {
  kept.push(instance);
}
