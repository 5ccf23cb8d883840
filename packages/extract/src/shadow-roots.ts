/**
 * Declarative shadow DOM: a web component rendered on the server (Lit, Stencil, Salesforce's
 * components, MDN's) writes its shadow tree as `<template shadowrootmode="open">` inside its host
 * element, and a browser shows that tree in the host's place, each `<slot>` filled with the host's
 * own children that name it. Neither DOM the extractor parses with attaches such a tree (jsdom
 * keeps it in the template's content fragment, linkedom as the template's children, and both read
 * templates as inert), so the component's text was lost. {@link flattenShadowRoots} puts the
 * composed tree in the light DOM, as a reader sees it.
 */

import { appendChildrenOf, unwrap } from './text.js';

/** Nested components each add a round; past this many the rest stay as they are. */
const MAX_ROUNDS = 16;

const SHADOW_TEMPLATES = 'template[shadowrootmode], template[shadowroot]';

/**
 * Replaces each host's children by its shadow tree, slots filled as a browser fills them: a
 * `<slot name="x">` by the host's children with `slot="x"`, the unnamed slot by its other children
 * (and text), a slot nobody fills by its own fallback content. Host children that no slot takes are
 * not shown by a browser, and go. Only the host's first shadow template counts (a browser
 * attaches one shadow root per host). Nested components (a shadow tree holding hosts)
 * are flattened in later rounds. Returns the number of shadow trees flattened.
 */
export function flattenShadowRoots(doc: Document): number {
  let flattened = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const templates = Array.from(doc.querySelectorAll(SHADOW_TEMPLATES));
    if (templates.length === 0) break;
    for (const template of templates) {
      if (!template.isConnected) continue;
      const host = template.parentElement;
      const first = host ? Array.from(host.children).find(isShadowTemplate) : undefined;
      if (host === null || first !== template) {
        template.remove(); // A second declaration on one host is ignored by browsers.
        continue;
      }
      flatten(doc, host, template);
      flattened++;
    }
  }
  return flattened;
}

function flatten(doc: Document, host: Element, template: Element): void {
  const tree = doc.createDocumentFragment();
  // linkedom parses a template's children as its child nodes; jsdom (as the HTML parser does) into
  // its content fragment.
  const source: ParentNode =
    template.firstChild !== null ? template : ((template as HTMLTemplateElement).content ?? template);
  appendChildrenOf(source, tree);
  template.remove();

  // The host's own children, by the slot they ask for ('' for the unnamed slot).
  const bySlot = new Map<string, ChildNode[]>();
  for (const child of Array.from(host.childNodes)) {
    const name = child.nodeType === 1 ? ((child as Element).getAttribute('slot') ?? '') : '';
    if (child.nodeType !== 1 && child.nodeType !== 3) continue;
    const list = bySlot.get(name) ?? [];
    list.push(child);
    bySlot.set(name, list);
  }
  // Slots of nested components' own templates belong to those components.
  const slots = Array.from(tree.querySelectorAll('slot')).filter((slot) => !insideTemplate(slot, tree));
  const filled = new Set<string>();
  for (const slot of slots) {
    const name = slot.getAttribute('name') ?? '';
    const assigned = filled.has(name) ? undefined : bySlot.get(name);
    filled.add(name); // Only the first slot of a name is filled.
    if (assigned === undefined || assigned.every(isBlank)) {
      unwrap(slot);
      continue;
    }
    const parent = slot.parentNode;
    for (const node of assigned) parent?.insertBefore(node, slot);
    slot.remove();
  }
  for (const child of Array.from(host.childNodes)) child.remove();
  host.appendChild(tree);
}

function isShadowTemplate(el: Element): boolean {
  return el.localName === 'template' && (el.hasAttribute('shadowrootmode') || el.hasAttribute('shadowroot'));
}

function isBlank(node: ChildNode): boolean {
  return node.nodeType === 3 && (node.nodeValue ?? '').trim() === '';
}

function insideTemplate(el: Element, root: DocumentFragment): boolean {
  for (let at = el.parentElement; at !== null && (at as Node) !== root; at = at.parentElement) {
    if (at.localName === 'template') return true;
  }
  return false;
}
