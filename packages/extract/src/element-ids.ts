/**
 * `getElementById` for many lookups in one document. linkedom answers each call with a walk of the
 * whole document, so a step that looks up an id per footnote, formula or heading grew with the
 * square of the page: 10,000 footnote references took 8 to 23 s. The lookup returned walks the
 * document once, at its first call, and keeps the first element of each id in document order, as
 * `getElementById` does. An element removed since is looked up again by the document, which may now
 * hold another of the same id.
 */
export function idLookup(doc: Document): (id: string) => Element | null {
  let byId: Map<string, Element> | null = null;
  return (id) => {
    if (byId === null) {
      byId = new Map();
      for (const el of Array.from(doc.querySelectorAll('[id]'))) {
        const value = el.getAttribute('id');
        if (value && !byId.has(value)) byId.set(value, el);
      }
    }
    const found = byId.get(id);
    if (found === undefined) return null;
    return found.isConnected ? found : doc.getElementById(id);
  };
}
