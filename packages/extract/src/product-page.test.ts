import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { extractHtml } from './extract-html.js';
import { readPageMeta } from './meta.js';
import { dropProductExtras, isProductPage, type ProductSignals, withDeclaredDescription } from './product-page.js';

const doc = (html: string): Document => parseHTML(`<html><body>${html}</body></html>`).document as unknown as Document;
const none: ProductSignals = { ogType: undefined, jsonLdProducts: 0, declaresArticle: false };
const cartButton = '<form action="/cart/add"><button type="submit">Add to cart</button></form>';
const description =
  'This waxed canvas backpack carries a laptop, a change of clothes and lunch, and keeps them dry on a rainy ride.';

describe('isProductPage', () => {
  it('takes og:type product and exactly one JSON-LD product on sale', () => {
    const page = doc('<h1>Backpack</h1>');
    expect(isProductPage(page, { ...none, ogType: 'product' })).toBe(true);
    expect(isProductPage(page, { ...none, ogType: 'product.group' })).toBe(false);
    expect(isProductPage(page, { ...none, jsonLdProducts: 1 })).toBe(true);
    expect(isProductPage(page, { ...none, jsonLdProducts: 3 })).toBe(false);
  });

  it('takes one schema.org/Product microdata item, not several', () => {
    const item = '<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Bag</span></div>';
    expect(isProductPage(doc(item), none)).toBe(true);
    expect(isProductPage(doc(item + item), none)).toBe(false);
  });

  it('takes one or two add-to-cart controls; a page with one per product is a category', () => {
    expect(isProductPage(doc(`<h1>Backpack</h1>${cartButton}`), none)).toBe(true);
    expect(isProductPage(doc(cartButton.repeat(2)), none)).toBe(true);
    // A form and its own button are one control.
    const form = '<form action="/add-to-cart"><button>Add to cart</button></form>';
    expect(isProductPage(doc(form.repeat(2)), none)).toBe(true);
    expect(isProductPage(doc(cartButton.repeat(5)), none)).toBe(false);
    expect(isProductPage(doc('<button>Subscribe</button>'), none)).toBe(false);
  });

  it('never takes an article, whatever it declares', () => {
    expect(isProductPage(doc(cartButton), { ...none, ogType: 'product', declaresArticle: true })).toBe(false);
  });
});

describe('JSON-LD products (meta.ts)', () => {
  const products = (...objects: object[]): number => {
    const scripts = objects.map((o) => {
      const script = doc('<script type="application/ld+json"></script>').querySelector('script') as Element;
      script.textContent = JSON.stringify(o);
      return script;
    });
    return readPageMeta([], scripts).jsonLd.products;
  };

  it('gives the description of the one product on sale, a percent-encoded one decoded', () => {
    const meta = (...objects: object[]) => {
      const scripts = objects.map((o) => {
        const script = doc('<script type="application/ld+json"></script>').querySelector('script') as Element;
        script.textContent = JSON.stringify(o);
        return script;
      });
      return readPageMeta([], scripts).jsonLd.productDescription;
    };
    const offer = { '@type': 'Offer', price: '90' };
    expect(meta({ '@type': 'Product', name: 'Bag', offers: offer, description: '<p>A bag.</p>' })).toBe(
      '<p>A bag.</p>',
    );
    expect(meta({ '@type': 'Product', offers: offer, description: 'An%20elegant%20sofa' })).toBe('An elegant sofa');
    expect(meta({ '@type': 'Product', offers: offer, description: '100% wool, 20%20 off' })).toBe(
      '100% wool, 20%20 off',
    );
    const two = { '@type': 'Product', offers: offer, description: 'One of two.' };
    expect(meta(two, two)).toBeNull();
    expect(meta({ '@type': 'Product', review: [], description: 'Stars only.' })).toBeNull();
  });

  it('counts products with offers, variants or a SKU, not a product marked up only for its review stars', () => {
    expect(products({ '@type': 'Product', name: 'Bag', offers: { '@type': 'Offer', price: '90' } })).toBe(1);
    expect(products({ '@type': 'ProductGroup', name: 'Bag', hasVariant: [] })).toBe(1);
    expect(products({ '@type': 'Product', name: 'Phone', sku: 'SM-123', brand: { '@type': 'Brand' } })).toBe(1);
    expect(products({ '@type': 'Product', name: 'Consulting', review: [{ '@type': 'Review' }] })).toBe(0);
  });
});

describe('dropProductExtras', () => {
  it('removes reviews, shipping, delivery, seller and legal blocks by their class or id words, camel case included', () => {
    const root = doc(
      `<h1>Backpack</h1><p>${description}</p>` +
        '<div class="product-reviews"><p>Great bag, five stars.</p></div>' +
        '<div id="customerReviews"><p>Strap broke after a week.</p></div>' +
        '<div class="shipping_info"><p>Free shipping over $50.</p></div>' +
        '<div class="deliveryMessage"><p>Order today to get it by Friday.</p></div>' +
        '<div class="seller-card"><p>Sold by BagWorks, 99% positive.</p></div>' +
        '<p class="game_area_legal">Terms of use apply.</p>',
    ).body;
    expect(dropProductExtras(root)).toBe(6);
    expect(root.textContent).toContain('waxed canvas');
    expect(root.textContent).not.toMatch(/five stars|Strap broke|Free shipping|by Friday|BagWorks|Terms of use/);
  });

  it('removes a popup a script shows only while it is open, and keeps a block shown on another condition', () => {
    const root = doc(
      `<h1>Backpack</h1><p>${description}</p>` +
        '<div v-cloak v-if="isNotifyModalOpen"><h3>Notify me when back in stock</h3><p>Sign up and we will let you know.</p>' +
        '<div v-if="!isNotifyModalSuccess"><p>You can opt out any time.</p></div></div>' +
        '<div v-show="!isSizeSelected"><p>Pick a size to see delivery dates.</p></div>',
    ).body;
    expect(dropProductExtras(root)).toBe(1);
    expect(root.textContent).not.toMatch(/Notify me|opt out/);
    expect(root.textContent).toContain('Pick a size');
  });

  it('keeps words that only contain those words, and a named block holding the h1', () => {
    const root = doc(
      '<div class="previews"><p>Preview images</p></div>' +
        `<div class="reviews-layout"><h1>Backpack</h1><p>${description}</p></div>`,
    ).body;
    expect(dropProductExtras(root)).toBe(0);
    expect(root.textContent).toContain('Preview images');
    expect(root.textContent).toContain('waxed canvas');
  });

  it('removes blocks with a hiding utility class, not classes that merely start like one', () => {
    const root = doc(
      '<dl class="product-data hide"><dt>size_guide:</dt><dd>https://cdn.example/guide.jpg</dd></dl>' +
        '<div class="hide-on-mobile"><p>Shown on desktops.</p></div>',
    ).body;
    expect(dropProductExtras(root)).toBe(1);
    expect(root.textContent).not.toContain('size_guide');
    expect(root.textContent).toContain('Shown on desktops.');
  });

  it('keeps the first of several copies of a block, and short labels shown again', () => {
    const root = doc(
      `<div class="mobile"><p>${description}</p></div><div class="desktop"><p>${description}</p></div>` +
        `<div class="tab"><p>${description}</p></div><p>In stock</p><p>In stock</p>` +
        '<h1>Waxed Canvas Commuter Backpack</h1><div class="sticky">Waxed Canvas Commuter Backpack</div>',
    ).body;
    expect(dropProductExtras(root)).toBe(3);
    expect(root.querySelector('.sticky')).toBeNull();
    expect(root.querySelector('h1')).not.toBeNull();
    expect(root.textContent?.split('waxed canvas')).toHaveLength(2);
    expect(root.textContent?.split('In stock')).toHaveLength(3);
  });

  it('removes the blocks of other products under a heading that says so, and dialogs over the page', () => {
    const card = (name: string) => `<li><a href="/p/${name}">${name} backpack</a><span>€ 49</span></li>`;
    const root = doc(
      `<div class="buybox"><h1>Waxed Canvas Commuter Backpack</h1><p>${description}</p>` +
        '<h2>Details</h2><p>Waxed cotton canvas, leather straps.</p></div>' +
        `<div class="carousel"><div class="head"><h2>Customers also bought</h2></div><ul>${card('Roll-top')}${card('Daypack')}</ul></div>` +
        `<div class="more"><h3>Products related to this item</h3><ul>${card('Sling')}</ul></div>` +
        '<section><h2>Specifications</h2><p>Volume: 20 litres.</p>' +
        `<h3>You may also like</h3><ul>${card('Tote')}</ul><h3>Care</h3><p>Wipe clean with a damp cloth.</p></section>` +
        '<form role="dialog"><h4>Select your cookie preferences</h4><p>We use cookies and similar tools.</p></form>',
    ).body;
    expect(dropProductExtras(root)).toBe(4);
    const text = root.textContent ?? '';
    for (const kept of ['Commuter Backpack', 'leather straps', 'Volume: 20 litres.', 'Wipe clean', 'Specifications']) {
      expect(text).toContain(kept);
    }
    for (const gone of ['also bought', 'Roll-top', 'Daypack', 'related', 'Sling', 'may also like', 'Tote', 'cookie']) {
      expect(text).not.toContain(gone);
    }
  });

  it('removes the buy box around an add-to-cart control, up to the name and the description', () => {
    const root = doc(
      `<div class="info"><h1>Backpack</h1><div class="summary"><p>${description}</p>` +
        '<div class="buy"><div class="price"><span>Current price is $179.00</span><span>Free 90-day returns</span></div>' +
        '<div class="plans"><label>3-Year Plan - $24.00</label><label>4-Year Plan - $34.00</label></div>' +
        '<div class="cta"><input name="qty" value="1"><button type="button">Add to cart</button></div>' +
        '<p>Arrives by Today. Order within 3 hr 52 min</p></div></div></div>' +
        '<div class="details"><h2>Specifications</h2><p>Volume: 20 litres.</p></div>',
    ).body;
    expect(dropProductExtras(root)).toBe(1);
    expect(root.querySelector('.buy')).toBeNull();
    const text = root.textContent ?? '';
    for (const kept of ['Backpack', 'waxed canvas', 'Volume: 20 litres.']) expect(text).toContain(kept);
    for (const gone of ['$179.00', 'returns', 'Year Plan', 'Arrives by', 'Add to cart'])
      expect(text).not.toContain(gone);
  });

  it("finds a buy box by its control's label, test id or cart form, and keeps a control holding a sentence", () => {
    const box = (control: string) =>
      `<div class="info"><h1>Backpack</h1><p>${description}</p><div class="box"><span>$49.00</span>${control}</div></div>`;
    for (const control of [
      '<button aria-label="Add to cart - Backpack, waxed canvas">+</button>',
      '<div><button data-automation-id="add-to-cart">Buy</button></div>',
      '<form method="post" action="/cart/add"><input type="hidden" name="id" value="7"><button>Buy now</button></form>',
      '<form data-type="add-to-cart-form"><button>Buy now</button></form>',
    ]) {
      const root = doc(box(control)).body;
      expect(dropProductExtras(root)).toBe(1);
      expect(root.querySelector('.box')).toBeNull();
      // The price stays, alone, where the box was.
      expect(root.querySelector('.info > p:last-child')?.textContent).toBe('$49.00');
      expect(root.textContent).toContain('waxed canvas');
    }
    // Not a cart: a newsletter form, an `/cart/added` page, a button written around a sentence.
    for (const control of [
      '<form action="/subscribe"><button>Sign up</button></form>',
      '<form action="/cart/added"><button>Go</button></form>',
      '<button class="add-to-cart">Add the backpack to your cart now and we will pack it the same day, ship it by courier and take it back within a month</button>',
    ]) {
      const root = doc(box(control)).body;
      expect(dropProductExtras(root)).toBe(0);
      expect(root.textContent).toContain('$49.00');
    }
  });

  it("keeps the box's first price written alone, not a struck-through one, a sentence with one or a plan's", () => {
    const page = (price: string) =>
      `<div class="info"><h1>Headphones</h1><p>${description}</p><div class="buy">` +
      `<div class="price"><span class="visually-hidden">Regular price</span><s>$899.00</s>${price}</div>` +
      `<label>3-Year Plan - $24.00</label><p>Starting at $67/mo with Affirm.</p>${cartButton}</div></div>`;
    for (const [price, shown] of [
      ['<span class="price-item">\n  $799\n</span>', '$799'],
      ['<span>$ 1,299.99</span>', '$ 1,299.99'],
      ['<span>4.345,00 €</span>', '4.345,00 €'],
      ['<span>USD 25</span>', 'USD 25'],
      ['<bdi>1 299 kr</bdi>', '1 299 kr'],
    ]) {
      const root = doc(page(price as string)).body;
      expect(dropProductExtras(root)).toBe(1);
      const text = root.textContent ?? '';
      expect(text).toContain(shown as string);
      for (const gone of ['$899.00', 'Year Plan', 'Affirm', 'Add to cart']) expect(text).not.toContain(gone);
    }
    // No price alone in the box: nothing stays.
    const root = doc(page('<span>Sold out</span>')).body;
    dropProductExtras(root);
    expect(root.textContent).not.toMatch(/\$/);
  });

  it('gives the price once when a sticky bar repeats the buy box', () => {
    const buy = (price: string) => `<div class="buy"><span>${price}</span>${cartButton}</div>`;
    const root = doc(
      `<div class="info"><h1>Backpack</h1><p>${description}</p>${buy('$49.00')}</div>${buy('$49.00')}`,
    ).body;
    expect(dropProductExtras(root)).toBe(2);
    expect(root.textContent?.split('$49.00')).toHaveLength(2);
  });

  it('keeps a section whose long heading only mentions related words', () => {
    const root = doc(
      `<h1>Backpack</h1><h2>How the straps are related to the frame and why it matters on long rides</h2><p>${description}</p>`,
    ).body;
    expect(dropProductExtras(root)).toBe(0);
    expect(root.textContent).toContain('waxed canvas');
  });

  it('keeps an <h1> that repeats an earlier block (the name in the breadcrumbs)', () => {
    const root = doc(
      '<div class="crumbs">Waxed Canvas Commuter Backpack</div><h1>Waxed Canvas Commuter Backpack</h1>',
    ).body;
    expect(dropProductExtras(root)).toBe(0);
    expect(root.querySelector('h1')?.textContent).toBe('Waxed Canvas Commuter Backpack');
  });
});

describe('withDeclaredDescription', () => {
  const main = { text: 'Backpack\n\n$90\n\nAdd to cart', markdown: '# Backpack\n\n$90\n\nAdd to cart' };

  it('adds a description the page does not show, as a paragraph of text and of Markdown', () => {
    const added = withDeclaredDescription(main, `${description} *Waterproof* #1 pick.`);
    expect(added.text).toBe(`${main.text}\n\n${description} *Waterproof* #1 pick.`);
    expect(added.markdown).toBe(`${main.markdown}\n\n${description} \\*Waterproof\\* \\#1 pick.`);
  });

  it('leaves the page as it is when it shows half the words or more, or the description is short', () => {
    const shown = { text: `${main.text}\n\n${description.slice(0, 70)}`, markdown: main.markdown };
    expect(withDeclaredDescription(shown, description)).toBe(shown);
    expect(withDeclaredDescription(main, 'Waxed canvas, 20 litres.')).toBe(main);
  });
});

describe('extractHtml on a product page', () => {
  it("adds the product's description its JSON-LD alone gives (a script-built tab), read as text", () => {
    const jsonLd = JSON.stringify({
      '@type': 'Product',
      name: 'Waxed Canvas Backpack',
      offers: { '@type': 'Offer', price: '90' },
      description: `<p><strong>BUILT FOR RAIN</strong></p><p>${description}</p><ul><li>20 litres</li></ul>`,
    });
    const body =
      '<main><h1>Waxed Canvas Backpack</h1><p>$90</p><div id="tabs"></div>' +
      '<p>Free returns within thirty days on every order, and help from our team seven days a week.</p></main>';
    const head = `<script type="application/ld+json">${jsonLd}</script>`;
    const page = extractHtml(`<html><head>${head}</head><body>${body}</body></html>`, {
      url: 'https://shop.example/backpack',
    });
    expect(page.body_text).toContain(`BUILT FOR RAIN\n\n${description}\n\n20 litres`);
    expect(page.body_markdown).toContain(description);
    // An article that names a product keeps its own text only.
    const article = head
      .replace('"@type":"Product"', '"@type":"Product","x":1')
      .concat('<script type="application/ld+json">{"@type":"NewsArticle","headline":"A backpack"}</script>');
    expect(
      extractHtml(`<html><head>${article}</head><body>${body}</body></html>`, { url: 'https://news.example/a' })
        .body_text,
    ).not.toContain('BUILT FOR RAIN');
  });

  it('leaves out the reviews of a page declaring one product, and keeps those of other pages', () => {
    const body =
      `<main><h1>Waxed Canvas Backpack</h1><p>${description}</p><p>${description.replace('laptop', 'tablet')}</p>` +
      '<section class="reviews"><h2>Reviews</h2><p>I ride to work with it every day and it has never let me down.</p>' +
      '<p>The strap broke after a week of carrying books, and the shop never answered my mails.</p></section></main>';
    const product = `<html><head><meta property="og:type" content="product"></head><body>${body}</body></html>`;
    const page = `<html><head></head><body>${body}</body></html>`;
    expect(extractHtml(product, { url: 'https://shop.example/backpack' }).body_text).not.toContain('strap broke');
    expect(extractHtml(page, { url: 'https://shop.example/backpack' }).body_text).toContain('strap broke');
  });

  it("gives a product no author: the bylines there are its reviewers'", () => {
    const review = '<div class="review"><p class="byline">By Ash C.</p><p>Works well.</p></div>';
    const body = `<main><h1>Waxed Canvas Backpack</h1><p>${description}</p><p>${description}</p>${review}</main>`;
    const head = '<meta name="author" content="Ash C.">';
    const product = `<html><head>${head}<meta property="og:type" content="product"></head><body>${body}</body></html>`;
    const page = `<html><head>${head}</head><body>${body}</body></html>`;
    expect(extractHtml(product, { url: 'https://shop.example/backpack' }).author).toBeNull();
    expect(extractHtml(page, { url: 'https://shop.example/backpack' }).author).toBe('Ash C.');
  });
});
