/**
 * `build(document)`, computed once per document: a read spec never changes, and a change report
 * asks a plugin for every one of its operations (a scan of all operations, and a type index built
 * again, per call made comparing GitHub's REST spec with itself take 3.8 s).
 */
export function perDocument<D extends object, T>(build: (document: D) => T): (document: D) => T {
  const built = new WeakMap<D, T>();
  return (document) => {
    if (!built.has(document)) built.set(document, build(document));
    return built.get(document)!;
  };
}

/** Entries by their operationId and by `METHOD address`, the first of each winning (as a scan in document order would). */
export function selectorIndex<E>(
  entries: readonly E[],
  operationId: (entry: E) => string | undefined,
  address: (entry: E) => string,
): { byId: Map<string, E>; byAddress: Map<string, E> } {
  const byId = new Map<string, E>();
  const byAddress = new Map<string, E>();
  for (const entry of entries) {
    const id = operationId(entry);
    if (id !== undefined && !byId.has(id)) byId.set(id, entry);
    const key = address(entry);
    if (!byAddress.has(key)) byAddress.set(key, entry);
  }
  return { byId, byAddress };
}

/** The entry a selector names in an index of `selectorIndex`. */
export function selected<E>(
  index: { byId: Map<string, E>; byAddress: Map<string, E> },
  selector: { operationId?: string; method?: string; path?: string },
): E | undefined {
  if (selector.operationId !== undefined) return index.byId.get(selector.operationId);
  if (selector.method === undefined || selector.path === undefined) return undefined;
  return index.byAddress.get(`${selector.method.toUpperCase()} ${selector.path}`);
}
