import { describe, expect, it } from '@jest/globals';
import { JSDOM } from 'jsdom';
import { parseHTML } from 'linkedom';
import { idLookup } from './element-ids.js';

const DOMS = {
  linkedom: (html: string) => parseHTML(`<html><body>${html}</body></html>`).document as unknown as Document,
  jsdom: (html: string) => new JSDOM(`<html><body>${html}</body></html>`).window.document,
};

describe.each(['linkedom', 'jsdom'] as const)('idLookup (%s)', (dom) => {
  it('answers as getElementById: the first element of an id in document order, null for none', () => {
    const doc = DOMS[dom]('<div id="a"><p id="b">first</p></div><p id="b">second</p><span id="c"></span>');
    const byId = idLookup(doc);
    for (const id of ['a', 'b', 'c', 'missing']) expect(byId(id)).toBe(doc.getElementById(id));
    expect(byId('b')?.textContent).toBe('first');
    // linkedom answers an empty id with the <html> element, which has none; the DOM's answer is null.
    expect(byId('')).toBeNull();
  });

  it('asks the document again for an element removed since, which another of its id may replace', () => {
    const doc = DOMS[dom]('<p id="b">first</p><p id="b">second</p><p id="gone">x</p>');
    const byId = idLookup(doc);
    byId('b')?.remove();
    byId('gone')?.remove();
    expect(byId('b')?.textContent).toBe('second');
    expect(byId('gone')).toBeNull();
  });

  it('walks the document once, at its first lookup, however many ids are looked up', () => {
    const doc = DOMS[dom](Array.from({ length: 50 }, (_, i) => `<p id="n${i}">${i}</p>`).join(''));
    let walks = 0;
    const querySelectorAll = doc.querySelectorAll.bind(doc);
    doc.querySelectorAll = ((selector: string) => {
      walks++;
      return querySelectorAll(selector);
    }) as typeof doc.querySelectorAll;
    const byId = idLookup(doc);
    expect(walks).toBe(0);
    for (let i = 0; i < 50; i++) expect(byId(`n${i}`)?.textContent).toBe(String(i));
    expect(walks).toBe(1);
  });
});
