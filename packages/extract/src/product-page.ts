import { escapeMarkdown } from './markdown-escapes.js';
import { opensAsPopup } from './popups.js';
import { textTokens } from './quality.js';
import { HIDING_CLASSES, walkElements } from './text.js';

/**
 * The page of one product in a shop. Besides the product's name, description and details, it shows
 * what the shop puts around every product: the buy box (price, quantity, delivery terms, plans and
 * payment offers around the add-to-cart button), the customers' reviews, shipping and delivery
 * terms, the seller's card, legal small print, blocks the shop hides until a script shows them (a
 * variant's data, a size guide, a popup), dialogs over the page (cookie prompts), other products
 * under a heading that says so (`Customers also bought`, `Products related to this item`), and the
 * name and description again for each layout (desktop, mobile, a sticky bar, a tab). A reader of
 * the product skips these, as WCXB's references do; they are removed from the body of a page
 * declaring one product (see {@link isProductPage}) before its main text is looked for.
 */

/** `og:type` values of a product's page (a shop's category page says `product.group`). */
const PRODUCT_OG_TYPE = /^(?:og:)?product(?:\.item)?$/i;
const MICRODATA_PRODUCT = '[itemtype$="schema.org/Product"]';
/** A control that puts the product in the cart, by its id, name, class, value, action or text. */
const ADD_TO_CART = /add[\s_-]?to[\s_-]?(?:cart|bag|basket|trolley)/i;
const CONTROLS = 'button, input[type="submit"], input[type="button"], form';
/**
 * A product's page has one or two add-to-cart controls (its form and a sticky copy); a page of
 * several products has one per product.
 */
const MAX_CART_CONTROLS = 2;

/** What the page says about itself in its meta tags and JSON-LD. */
export interface ProductSignals {
  ogType: string | undefined;
  /** JSON-LD products on sale (see meta.ts). */
  jsonLdProducts: number;
  /** The page declares itself an article (og:type, JSON-LD). */
  declaresArticle: boolean;
}

/**
 * Whether `doc` (not yet edited) is the page of one product: `og:type` product, exactly one JSON-LD
 * product on sale or one schema.org/Product microdata item, or else one or two add-to-cart
 * controls. Never an article: reviews and buying guides declare and sell products too. Pages of
 * several products (a category, search results) declare none or many.
 */
export function isProductPage(doc: Document, signals: ProductSignals): boolean {
  if (signals.declaresArticle) return false;
  if (signals.ogType !== undefined && PRODUCT_OG_TYPE.test(signals.ogType)) return true;
  if (signals.jsonLdProducts > 0) return signals.jsonLdProducts === 1;
  if (doc.querySelectorAll(MICRODATA_PRODUCT).length === 1) return true;
  const controls: Element[] = [];
  for (const el of Array.from(doc.querySelectorAll(CONTROLS))) {
    // A form's own button is the same control.
    if (!ADD_TO_CART.test(controlText(el)) || controls.some((c) => c.contains(el))) continue;
    controls.push(el);
    if (controls.length > MAX_CART_CONTROLS) return false;
  }
  return controls.length > 0;
}

function controlText(el: Element): string {
  const attrs = ['id', 'name', 'class', 'value', 'action'].map((a) => el.getAttribute(a) ?? '').join(' ');
  return el.localName.toLowerCase() === 'button' ? `${attrs} ${el.textContent ?? ''}` : attrs;
}

/**
 * Class and id words of the customers' reviews, shipping and delivery terms, a marketplace's card of
 * the seller and the legal small print: whole words (`product-reviews`, `shipping_info`) or the
 * parts of a camel-case name (`customerReviews`, `deliveryMessage`); never inside a longer word
 * (`previews`).
 */
const EXTRA_WORDS =
  /(?:(?:^|[\s_-])(?:reviews?|shipping|delivery|sellers?|legal|disclaimers?)|(?:^|[\s_a-z-])(?:Reviews?|Shipping|Delivery|Sellers?|Legal|Disclaimers?))(?=$|[\s_A-Z-])/;
/**
 * Text shown again is a copy from this many characters on: a product's name or a line of its
 * description in a sticky bar, a gallery or a mobile layout. Shorter labels (`Add to cart`,
 * `In stock`) a page repeats on purpose.
 */
const MIN_COPY_CHARS = 30;

/**
 * Removes the buy boxes, reviews, shipping terms, seller cards, small print, hidden blocks and repeated copies
 * (see the module comment)
 * from `root`, the body of a product's page; returns how many blocks were removed. An `<h1>` (the
 * product's name) and a block holding one are kept.
 */
export function dropProductExtras(root: Element): number {
  const doomed: Element[] = [];
  walkElements(root, (el) => {
    if (!isExtra(el)) return true;
    doomed.push(el);
    return false;
  });
  for (const el of doomed) el.remove();
  return doomed.length + dropBuyBoxes(root) + dropRecommendations(root) + dropLaterCopies(root);
}

/**
 * Attributes that name a control on shops built by scripts, beyond those {@link controlText} reads:
 * `aria-label="Add to cart - …"`, `data-type="add-to-cart-form"`, `data-testid`, `data-automation-id`.
 */
const NAMING_ATTRS = ['aria-label', 'data-type', 'data-testid', 'data-automation-id'];
/** The action of a cart's form (Shopify's and its imitators'). */
const CART_ACTION = /\/cart\/add(?:$|[/?.])/i;
/** A text node of this many words is a sentence of the description, not a price, label or term. */
const SENTENCE_WORDS = 20;

/**
 * Removes the buy box around each add-to-cart control: the largest block around it that holds no
 * sentence (see {@link SENTENCE_WORDS}) and no `<h1>` or `<h2>`. That is the price, the quantity,
 * the variant's stock, the delivery estimate, protection plans and payment offers (`Free 90-day
 * returns`, `3-Year Plan - $24.00`, `Arrives by Today`); the product's name and description stop
 * it. Returns how many boxes were removed.
 */
function dropBuyBoxes(root: Element): number {
  const boxes: Element[] = [];
  for (const control of Array.from(root.querySelectorAll(CONTROLS))) {
    if (!isBuyControl(control) || boxes.some((box) => box.contains(control)) || holdsProse(control)) continue;
    let box = control;
    // `box` holds no prose, so its parent does only if one of box's siblings does.
    for (let up = box.parentElement; up !== null && up !== root; up = up.parentElement) {
      if (siblingsOf(box).some(holdsProse)) break;
      box = up;
    }
    boxes.push(box);
  }
  // The product's price is what a reader of the page asks first: it stays, alone, where the first
  // box holding one was (a sticky bar's copy of the box says it again).
  let priced = false;
  for (const box of boxes) {
    const price = priced ? null : firstPrice(box);
    if (price !== null) {
      priced = true;
      const line = box.ownerDocument.createElement('p');
      line.textContent = price;
      box.parentNode?.insertBefore(line, box);
    }
    box.remove();
  }
  return boxes.length;
}

/**
 * A price written alone: an amount with its currency sign or code before or after it (`$799`,
 * `$ 1,299.99`, `£12`, `4.345,00 €`, `1 299 kr`, `USD 25`).
 */
const PRICE_TEXT =
  /^(?:(?:[A-Z]{2,3}\s?)?[$€£¥₹₩]\s?\d[\d.,\s\u00a0\u202f]*|(?:USD|EUR|GBP|CAD|AUD|CHF|JPY|INR)\s?\d[\d.,\s\u00a0\u202f]*|\d[\d.,\s\u00a0\u202f]*\s?(?:[$€£¥₹₩]|kr|zł|Kč|Ft|lei|USD|EUR|GBP|CHF))$/u;
/** Where a price is the old one (struck through) or not shown. */
const NOT_THE_PRICE = 's, del, strike, [aria-hidden="true"], [hidden], script, style, template';

/** The first price written alone in `box` (see {@link PRICE_TEXT}), not struck through; null if none. */
function firstPrice(box: Element): string | null {
  const doc = box.ownerDocument;
  const walker = doc.createTreeWalker(box, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = (node.nodeValue ?? '').replace(/\s+/g, ' ').trim();
    if (text.length === 0 || text.length > 24 || !PRICE_TEXT.test(text)) continue;
    if (node.parentElement?.closest(NOT_THE_PRICE)) continue;
    return text;
  }
  return null;
}

function isBuyControl(el: Element): boolean {
  if (ADD_TO_CART.test(controlText(el))) return true;
  if (ADD_TO_CART.test(NAMING_ATTRS.map((a) => el.getAttribute(a) ?? '').join(' '))) return true;
  return el.localName.toLowerCase() === 'form' && CART_ACTION.test(el.getAttribute('action') ?? '');
}

function siblingsOf(el: Element): Node[] {
  return Array.from(el.parentNode?.childNodes ?? []).filter((n) => n !== el);
}

/** Whether `node` holds a sentence or a main heading (see {@link dropBuyBoxes}); scripts and styles hold neither. */
function holdsProse(node: Node): boolean {
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const n = stack.pop() as Node;
    if (n.nodeType === 3) {
      if (wordsIn(n.nodeValue ?? '') >= SENTENCE_WORDS) return true;
      continue;
    }
    if (n.nodeType !== 1) continue;
    const name = (n as Element).localName.toLowerCase();
    if (name === 'h1' || name === 'h2') return true;
    if (name === 'script' || name === 'style' || name === 'template') continue;
    for (let c = n.lastChild; c !== null; c = c.previousSibling) stack.push(c);
  }
  return false;
}

function wordsIn(text: string): number {
  const words = text.trim();
  return words === '' ? 0 : words.split(/\s+/).length;
}

/**
 * The heading of a shop's recommendations: other products (`Products related to this item`,
 * `Customers also bought`, `You may also like`, `Similar items`, `Recently viewed`, sponsored ones).
 */
const RECOMMENDATIONS =
  /\b(?:related (?:products?|items?|books?|searches|categories)|(?:products?|items?) related|similar (?:products?|items?|brands?)|compare with similar|^recommended\b|recommended (?:for you|products|items)|sponsored|trending|recently viewed|(?:customers|people|shoppers) (?:also|who)|(?:also|frequently|often) (?:bought|viewed|purchased|liked?)|you (?:may|might|will) (?:also )?(?:like|love|need|enjoy)|more (?:from|like this)|complete the look|consider these)\b/i;
/** A heading is a title: a longer one is a sentence that happens to hold the words. */
const MAX_HEADING_CHARS = 80;
const HEADING = /^h([1-6])$/;

/**
 * Removes the blocks a product's page shows other products in, each under a heading that says so
 * (see {@link RECOMMENDATIONS}): the largest block around the heading that holds no other heading
 * of its level or above, or, when the heading has siblings of its level, the heading and what
 * follows it up to the next one. Returns how many were removed.
 */
function dropRecommendations(root: Element): number {
  let removed = 0;
  for (const heading of Array.from(root.querySelectorAll('h2, h3, h4, h5, h6'))) {
    if (!heading.isConnected) continue;
    const text = (heading.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (text.length > MAX_HEADING_CHARS || !RECOMMENDATIONS.test(text)) continue;
    const level = Number(HEADING.exec(heading.localName.toLowerCase())?.[1]);
    const rival = Array.from({ length: level }, (_, i) => `h${i + 1}`).join(', ');
    let block: Element = heading;
    for (let up = heading.parentElement; up !== null && up !== root; up = up.parentElement) {
      if (Array.from(up.querySelectorAll(rival)).some((h) => h !== heading)) break;
      block = up;
    }
    if (block === heading) {
      // Headings side by side: the section is the heading and its siblings up to the next one.
      for (let next = heading.nextElementSibling; next !== null; ) {
        const name = next.localName.toLowerCase();
        const nextLevel = Number(HEADING.exec(name)?.[1] ?? 7);
        if (nextLevel <= level || next.querySelector(rival) !== null) break;
        const after = next.nextElementSibling;
        next.remove();
        next = after;
      }
    }
    block.remove();
    removed++;
  }
  return removed;
}

function isExtra(el: Element): boolean {
  const cls = el.getAttribute('class') ?? '';
  const id = el.getAttribute('id') ?? '';
  const named = (cls.length < 200 && EXTRA_WORDS.test(cls)) || (id.length < 100 && EXTRA_WORDS.test(id));
  const hiding = cls.length < 200 && cls.split(/\s+/).some((c) => HIDING_CLASSES.has(c));
  return (named || hiding || isDialog(el) || opensAsPopup(el)) && !holdsH1(el);
}

/**
 * A dialog (a cookie prompt, a size guide, the cart), shown over the page; also one a script shows
 * only while it is open (see opensAsPopup).
 */
function isDialog(el: Element): boolean {
  const role = el.getAttribute('role');
  return role === 'dialog' || role === 'alertdialog' || el.localName.toLowerCase() === 'dialog';
}

function holdsH1(el: Element): boolean {
  return el.localName.toLowerCase() === 'h1' || el.querySelector('h1') !== null;
}

/**
 * Removes every copy after the first of a block whose whole text (at least {@link MIN_COPY_CHARS}
 * characters) is shown again: shops repeat the product's name and description for each layout, often
 * more than twice (repeated-text.ts keeps text shown three times, which on other pages is a label
 * repeated on purpose).
 */
function dropLaterCopies(root: Element): number {
  const firsts = new Map<string, Element>();
  const doomed: Element[] = [];
  for (const el of Array.from(root.querySelectorAll('*'))) {
    const key = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (key.length < MIN_COPY_CHARS) continue;
    const first = firsts.get(key);
    if (first === undefined) firsts.set(key, el);
    // A wrapper and the block it wraps are one copy; a removed copy takes its insides along.
    else if (!first.contains(el) && !holdsH1(el) && !doomed.some((d) => d.contains(el))) doomed.push(el);
  }
  for (const el of doomed) el.remove();
  return doomed.length;
}

/** A declared description shorter than this (a tagline, a size) is not worth adding. */
const MIN_DESCRIPTION_CHARS = 80;
/** The page shows the description when it holds at least this share of its words. */
const SHOWN_SHARE = 0.5;

/**
 * The main content of a product's page with the product's description from its JSON-LD added at
 * the end, when the description is long enough and the page shows less than half of its words:
 * shops whose scripts build the description (a tab or accordion filled from the page's data) send
 * it only there, and a search for the product's own words then missed the page. `description`
 * is the description as plain text (see extract-html.ts: its HTML read as blocks).
 */
export function withDeclaredDescription(
  main: { readonly text: string; readonly markdown: string },
  description: string,
): { text: string; markdown: string } {
  if (description.length < MIN_DESCRIPTION_CHARS) return main;
  const shown = new Set(textTokens(main.text));
  const own = textTokens(description);
  if (own.filter((word) => shown.has(word)).length >= SHOWN_SHARE * own.length) return main;
  const join = (a: string, b: string) => (a === '' ? b : `${a}\n\n${b}`);
  return { text: join(main.text, description), markdown: join(main.markdown, escapeMarkdown(description)) };
}
