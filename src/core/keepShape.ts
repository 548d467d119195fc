/** Instances of the per-stream hot classes, kept for the life of the module (why: docs/performance.md). */
const kept: object[] = [];

export function keepShape(instance: object): void {
  kept.push(instance);
}
