/** A syntax tree without its source positions: parts parsed apart (a table's rows, a list's items) differ there. */
export function withoutPositions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutPositions);
  if (node === null || typeof node !== 'object') return node;
  const { position: _position, ...rest } = node as Record<string, unknown>;
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, withoutPositions(value)]));
}
