import { HIDING_CLASSES, textUpTo } from './text.js';

/**
 * Words a page's interface shows that are no part of what it says: the skip links offered to
 * keyboard users (`Skip to main content`, `Jump to recipe`), a loading indicator's word
 * (`Loading…`, the fallback of a part a script fills in), a date's copy written for machines
 * (`2006-08-08T22:13+00:00`), a date's short form for narrow screens (`1 yr`), the label of a
 * form control (`Sorted by:` over a sort menu, `Email address`) and a template's
 * expression that no script filled in (`{{ DiscussionBoard.errors[11793116].message }}`), an
 * advertisement's label (`Advertisement`, `Article continues below`, `Sponsored`), an empty
 * list's message (`No posts`, `Be the first to comment`) and a prompt to sign in (`You must log in
 * to answer this question.`, removed from the main text alone: see dropSignInPrompts) and the links and buttons
 * a class hides until a script shows them (`Reset to default` beside a sort menu). A reader never
 * reads them as the page's text; an index that keeps them matches `loading` on every app shell,
 * and an answer quoting the page quotes them. (Placeholder text, `Lorem ipsum…`, is not removed: it is the text of many
 * test and demonstration pages, Mozilla Readability's own among them.)
 */

/** A skip link's words, as themes write them (WordPress's `skip-link` in its common languages). */
const SKIP_LINK =
  /^(?:skip|jump)\b|^(?:zum inhalt springen|direkt zum inhalt|aller au contenu|passer au contenu|saltar al contenido|ir al contenido|salta al contenuto|pular para o conte[uú]do|ir para o conte[uú]do|naar (?:de )?inhoud)/i;
/** A skip link is a short label; a longer in-page link that starts `Skip` is a sentence. */
const MAX_SKIP_LINK_CHARS = 80;

/**
 * A loading indicator's whole text: `Loading`, `Loading…`, `Loading paragraph...`, `LOADING...`,
 * and the same with an ellipsis in a few languages.
 */
const LOADING =
  /^(?:loading(?:(?: \p{L}+)?\s*(?:\.{2,3}|…))?|(?:chargement|cargando|carregando|caricamento|wird geladen|laden|加载中|載入中|読み込み中)\s*(?:\.{2,3}|…))$/iu;
/** How a loading word starts, in the languages of {@link LOADING}. */
const LOADING_START = /^(?:loading|chargement|cargando|carregando|caricamento|wird|laden|加载|載入|読み込み)/i;
/**
 * An advertisement's label, the whole of a text: the word set over an ad's slot (`Advertisement`,
 * `Sponsored`, `Anzeige`, `广告`) and the line that tells the reader the text goes on past it
 * (`Advertisement - Continue Reading Below`, `Story continues below advertisement`, `Article
 * Continues Below`). The ad itself is a script's and never in the page's HTML; its label is.
 */
const AD_LABEL = new RegExp(
  '^(?:advertisements?|advertisement\\s*[-–—:|]\\s*(?:continue|scroll)[\\p{L} ]{0,30}|sponsored(?: (?:content|links?|posts?|ads?|by))?' +
    '|(?:the )?(?:story|article|content|text|post) continues (?:below|after (?:the )?(?:advertisement|ad))(?: (?:the )?advertisement)?' +
    '|continue reading below|scroll (?:down )?to continue(?: (?:reading|with content))?' +
    '|anzeige|werbung|publicité|publicidad|pubblicità|advertentie|publicidade|reklama|广告|廣告|広告|スポンサーリンク)$',
  'iu',
);
/**
 * An empty list's message, the whole of a text: what a widget shows in place of the posts,
 * comments, reviews or results it has none of (`No posts`, `No Reviews Yet`, `No results found.`,
 * `Be the first to comment`).
 */
const EMPTY_LIST =
  /^(?:(?:there are )?no (?:posts|comments|reviews|results|items|replies|answers|ratings)(?: yet)?(?: found)?|be the first to (?:comment|review|reply|answer|rate)(?: on this (?:post|article|product))?)[.!]?$/i;
/**
 * A prompt to sign in, the whole of a text: what a site shows a visitor in place of what members
 * can do (`Create an account or sign in to comment`, `You must log in to answer this question.`,
 * `Sign in to view additional items selected just for you.`, `Join to see EXIF info for this image`).
 */
const SIGN_IN_PROMPT = new RegExp(
  '^(?:please )?(?:you (?:need|must|have) (?:to )?(?:be (?:a member|logged in|signed in|registered)|log ?in|sign ?in|register)' +
    '|log ?in|sign ?in|sign up|register|join(?: now)?|create an account)' +
    '(?: (?:or|and|/) (?:log ?in|sign ?in|sign up|register|create an account))?(?: now)? (?:in order )?to ' +
    '(?:comment|reply|post|answer|see|view|save|leave|add|download|read|continue|access|like|follow)\\b[^.!?]{0,60}[.!]?$',
  'i',
);
/**
 * An element's first own words that may open a prompt to sign in whose sign-in words are a link
 * (`You must <a>log in</a> to answer…`, `<a>Join</a> to see EXIF info…`): the whole text is read then.
 */
const SIGN_IN_WORDS =
  /^(?:you (?:need|must|have)\b|please\b|(?:or |and )?(?:log ?in|sign ?in|sign up|register|join|create an account)\b|to (?:comment|reply|post|answer|see|view|save|leave|add|download|read|continue|access|like|follow)\b)/i;
/** Words a prompt to sign in holds (see SIGN_IN_PROMPT): a main text without them is not read for one. */
const SIGN_IN_HINT = /\b(?:log ?in|sign ?in|sign up|register|join|create an account|member)\b/i;
/** A prompt to sign in is a sentence at most. */
const MAX_SIGN_IN_PROMPT_CHARS = 120;
/** Text read of an element for a prompt at most: the sentence and its markup's white space. */
const MAX_SIGN_IN_PROMPT_MARKUP_CHARS = 400;
/** How a notice (see AD_LABEL, EMPTY_LIST) starts: the cheap test every element's first words take. */
const NOTICE_START =
  /^(?:adv|spons|(?:the )?(?:story|article|content|text|post) |continue|scroll|anzeige|werbung|publici|pubblici|reklam|广告|廣告|広告|スポンサー|no |there |be the)/i;
/** A notice (an ad's label, an empty list's message) is a few words; a longer text that starts so is the page's. */
const MAX_NOTICE_CHARS = 80;
/** Elements whose whole text may be such a notice and still be the page's: a table's value, a list's item, code. */
const DATA_HOLDERS = /^(?:td|th|dt|dd|li|code|pre|kbd|samp|option|title)$/;
/**
 * A template's expressions, the whole of a text (`{{ person.name }}`, `{{hire-ai-eng="/banners/x"}}`):
 * Angular, Vue, Handlebars or a CMS's shortcode, left for a script or a server to fill in.
 */
const TEMPLATE_EXPRESSIONS = /^(?:\{\{[^{}]*\}\}\s*)+$/;
/** An ISO 8601 date and time, whole (`2025-10-30T10:45:07-04:00`, `2006-08-08T22:13Z`). */
const ISO_STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;
/** A form control's label is a few words (`Sorted by:`, `Email address`); a longer one explains. */
const MAX_CONTROL_LABEL_CHARS = 60;
/** The controls a `<label>` names, which Readability removes and leaves their labels behind. */
const LABELLED_CONTROLS = new Set(['input', 'select', 'textarea']);
/** Inputs whose label is what the page offers, not the interface's words. */
const CHOICES = /^\s*(?:radio|checkbox)\s*$/i;
/** Text read from a link or button at most: a label and its markup's spacing. */
const MAX_LABEL_MARKUP_CHARS = 1_000;
/**
 * A class that shows an element from some screen width on (Tailwind's `md:block`, Bootstrap's
 * `d-lg-inline`): one a hiding class hides on phones alone.
 */
const SHOWN_AT_WIDTH =
  /^(?:(?:sm|md|lg|xl|2xl):(?:block|inline|inline-block|flex|inline-flex|grid|table)|d-(?:sm|md|lg|xl|xxl)-(?:block|inline|inline-block|flex|inline-flex|grid|table))$/;
/** A hidden control's label is a few words (see isHiddenControl). */
const MAX_HIDDEN_CONTROL_CHARS = 60;
/** Elements whose whole text may be the word `Loading` and still say something (a heading, a table's state). */
const MEANINGFUL_WORD_HOLDERS = /^(?:h[1-6]|td|th|dt|dd|code|pre|kbd|option|title)$/;

/**
 * Removes the interface's words (see the module's comment) from `elements` (a document's
 * elements): skip links (in-page links and buttons) and elements whose whole text is a loading
 * indicator's, when they are not a part of a sentence (their parent has no words of its own: `You can
 * <a href="#end">jump to the end</a> of the list` and `<b>Loading</b> speed: …` are prose); elements whose whole text is a date and
 * time for machines (see isMachineTimestamp); a `<time>`'s short form (see dropShortForm); a form
 * control's short label (see isControlLabel). A
 * template's expressions go later, from the main text alone (see dropTemplateExpressions).
 */
export function dropInterfaceText(elements: readonly Element[]): void {
  // A parent's own words, read once: the skip links of a page may all be children of one parent,
  // whose children were read again for each (10,000 took 3 s). Removing an element leaves them.
  const ownWords = new Map<Element, string | null>();
  const standsAlone = (el: Element): boolean => {
    const parent = el.parentElement;
    if (parent === null) return true;
    let words = ownWords.get(parent);
    if (words === undefined) {
      words = firstOwnWords(parent);
      ownWords.set(parent, words);
    }
    return words === null;
  };
  // The form controls by id, read once when a page has a label: a label's lookup by id walked the
  // whole page (20,000 labels took 20 s).
  let controls: Map<string, Element> | undefined;
  for (const el of elements) {
    const name = el.localName.toLowerCase();
    if (name === 'a' || name === 'button') {
      // A card made one link holds a page's worth of text: read only as much as a label can be.
      const text = textUpTo(el, MAX_LABEL_MARKUP_CHARS).trim();
      const label = isSkipLink(el, name, text) || isLoadingIndicator(name, text) || isNotice(el, text);
      if ((label && standsAlone(el)) || isHiddenControl(el, text)) el.remove();
      continue;
    }
    if (name === 'body' || name === 'main' || name === 'article') continue;
    if (name === 'label') {
      controls ??= controlsById(elements);
      if (isControlLabel(el, controls)) el.remove();
      continue;
    }
    if (name === 'time') dropShortForm(el);
    // The element's own first words: the whole text is read only when they are a loading word.
    const first = firstOwnWords(el);
    if (first === null || !el.isConnected) continue;
    if (isMachineTimestamp(el, first)) {
      el.remove();
      continue;
    }
    if (first.length <= MAX_NOTICE_CHARS && NOTICE_START.test(first) && isNoticeText(first)) {
      if (isNotice(el, textUpTo(el, MAX_LABEL_MARKUP_CHARS).trim()) && standsAlone(el)) el.remove();
      continue;
    }
    if (!LOADING_START.test(first)) continue;
    if (isLoadingIndicator(name, (el.textContent ?? '').trim()) && standsAlone(el)) el.remove();
  }
}

/**
 * Removes the short form a `<time>` holds beside its long one, for narrow screens (Invision's
 * `<time data-short="1 yr"><span>April 2, 2024</span><span>1 yr</span></time>`): CSS shows one of
 * them, and the text read them as one word (`April 2, 20241 yr`).
 */
function dropShortForm(time: Element): void {
  const short = time.getAttribute('data-short')?.trim();
  if (!short) return;
  const children = Array.from(time.children);
  if (children.length < 2) return;
  const shorts = children.filter((child) => (child.textContent ?? '').trim() === short);
  // Both forms may read the same (`1 yr` and `1 yr`): one of them stays.
  const drop = shorts.length === children.length ? shorts.slice(1) : shorts;
  for (const child of drop) child.remove();
}

/**
 * Whether an element's whole text is a timestamp written for machines (`2006-08-08T22:13+00:00`):
 * the copy of a date a page keeps for microformats and feeds (`<time class="hide">`, hCard's
 * `updated rich-snippet-hidden`), beside the date it shows. Not in a table or code, where such a
 * stamp is a value shown.
 */
function isMachineTimestamp(el: Element, first: string): boolean {
  if (!ISO_STAMP.test(first) || el.firstElementChild !== null) return false;
  return ISO_STAMP.test((el.textContent ?? '').trim()) && el.closest('table, pre, code, samp, kbd') === null;
}

/**
 * Removes from the main text `root` the elements whose whole text is a template's expressions (see
 * TEMPLATE_EXPRESSIONS), outside code. Done once the main text is chosen: an expression's words
 * count in Readability's scores as any text does, and a thread whose every reply held one
 * (`{{ DiscussionBoard.errors[11793116].message }}`) was read as its first post without them.
 * Returns how many were removed.
 */
export function dropTemplateExpressions(root: Element): number {
  if (!(root.textContent ?? '').includes('{{')) return 0;
  let removed = 0;
  for (const el of Array.from(root.querySelectorAll('*'))) {
    const first = firstOwnWords(el);
    if (first === null || !isTemplateExpression(el, first)) continue;
    el.remove();
    removed++;
  }
  return removed;
}

/**
 * Removes from the main text `root` the prompts to sign in (see SIGN_IN_PROMPT) that stand alone,
 * outside a table, a list's item and code. Done once the main text is chosen, as
 * dropTemplateExpressions is: a forum's `You must log in or register to reply here.` under its
 * last post is a part of what marks the thread's end, and removed before, a thread was read as the
 * site's notice over it. Returns how many were removed.
 */
export function dropSignInPrompts(root: Element): number {
  if (!SIGN_IN_HINT.test(root.textContent ?? '')) return 0;
  let removed = 0;
  // A parent's own words, read once: a thread's prompts may all be children of one parent, whose
  // children were read again for each (see dropInterfaceText).
  const ownWords = new Map<Element, string | null>();
  const ownWordsOf = (parent: Element): string | null => {
    let words = ownWords.get(parent);
    if (words === undefined) {
      words = firstOwnWords(parent);
      ownWords.set(parent, words);
    }
    return words;
  };
  // The last prompt removed: the elements inside it come next in document order. (Not isConnected:
  // Readability's article is a tree of its own, outside any document.)
  let last: Element | null = null;
  for (const el of Array.from(root.querySelectorAll('*'))) {
    const first = firstOwnWords(el);
    if (first === null || first.length > MAX_SIGN_IN_PROMPT_CHARS || !SIGN_IN_WORDS.test(first)) continue;
    const text = textUpTo(el, MAX_SIGN_IN_PROMPT_MARKUP_CHARS).trim().replace(/\s+/g, ' ');
    if (text.length > MAX_SIGN_IN_PROMPT_CHARS || !SIGN_IN_PROMPT.test(text) || last?.contains(el)) continue;
    if (DATA_HOLDERS.test(el.localName.toLowerCase()) || el.closest('td, th, li, pre, code, table') !== null) continue;
    const parent = el.parentElement;
    if (parent !== null && parent !== root && ownWordsOf(parent) !== null) continue;
    el.remove();
    last = el;
    removed++;
  }
  return removed;
}

/** Whether an element's whole text is a template's expressions (see TEMPLATE_EXPRESSIONS); not in code, where it is shown. */
function isTemplateExpression(el: Element, first: string): boolean {
  if (!first.startsWith('{{') || el.firstElementChild !== null) return false;
  return (
    TEMPLATE_EXPRESSIONS.test((el.textContent ?? '').trim()) && el.closest('pre, code, samp, kbd, textarea') === null
  );
}

/**
 * Whether a `<label>` names a form control (by `for`, or holding it) in a few words: `Sorted by:`
 * over a sort menu, `Email address` in a newsletter box, `Quantity`. Readability drops the control
 * and kept its label as a line of the text. Not a radio button's or a check box's (see CHOICES).
 */
function isControlLabel(label: Element, controls: ReadonlyMap<string, Element>): boolean {
  const text = textUpTo(label, MAX_LABEL_MARKUP_CHARS).trim();
  if (text === '' || text.length > MAX_CONTROL_LABEL_CHARS) return false;
  const id = label.getAttribute('for');
  const target = id ? controls.get(id) : label.querySelector('input, select, textarea');
  if (target == null || !LABELLED_CONTROLS.has(target.localName.toLowerCase())) return false;
  // A radio button's or a check box's label is the choice itself (a product's colours and sizes).
  return !CHOICES.test(target.getAttribute('type') ?? '');
}

/** The form controls among `elements` (see LABELLED_CONTROLS) by their id, the first of each id. */
function controlsById(elements: readonly Element[]): Map<string, Element> {
  const controls = new Map<string, Element>();
  for (const el of elements) {
    const id = el.getAttribute('id');
    if (id && LABELLED_CONTROLS.has(el.localName.toLowerCase()) && !controls.has(id)) controls.set(id, el);
  }
  return controls;
}

function isSkipLink(el: Element, name: string, text: string): boolean {
  if (text.length > MAX_SKIP_LINK_CHARS || !SKIP_LINK.test(text)) return false;
  return name === 'button' || (el.getAttribute('href') ?? '').startsWith('#');
}

/**
 * Whether a link or button (`text`, its text read up to MAX_LABEL_MARKUP_CHARS) is a control hidden
 * by a utility class (see HIDING_CLASSES) at every screen width (see SHOWN_AT_WIDTH): one a script
 * shows when it applies (`Reset to default` once the reader sorts, `Show less` once a list is
 * open), never one the reader sees with the page. A control's label is short and no heading.
 */
function isHiddenControl(el: Element, text: string): boolean {
  const cls = el.getAttribute('class');
  if (cls === null || cls.length > 300 || text.length > MAX_HIDDEN_CONTROL_CHARS) return false;
  const tokens = cls.split(/\s+/);
  if (!tokens.some((c) => HIDING_CLASSES.has(c)) || tokens.some((c) => SHOWN_AT_WIDTH.test(c))) return false;
  return el.querySelector('h1, h2, h3, h4, h5, h6') === null;
}

function isLoadingIndicator(name: string, text: string): boolean {
  return text.length <= 40 && !MEANINGFUL_WORD_HOLDERS.test(name) && LOADING.test(text);
}

/**
 * Whether `text`, an element's whole text, is an advertisement's label or an empty list's message
 * (see AD_LABEL, EMPTY_LIST), outside a table, a list's item and code, where the words are a value
 * the page shows.
 */
function isNotice(el: Element, text: string): boolean {
  if (text.length > MAX_NOTICE_CHARS || !NOTICE_START.test(text) || !isNoticeText(text)) return false;
  return !DATA_HOLDERS.test(el.localName.toLowerCase()) && el.closest('td, th, li, pre, code, table') === null;
}

function isNoticeText(text: string): boolean {
  const flat = text.replace(/\s+/g, ' ');
  return AD_LABEL.test(flat) || EMPTY_LIST.test(flat);
}

/** The element's first own text node (not a descendant's) that is not blank, trimmed; null if none. */
function firstOwnWords(el: Element): string | null {
  for (let node = el.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType !== 3) continue;
    const text = (node.nodeValue ?? '').trim();
    if (text !== '') return text;
  }
  return null;
}

/**
 * The names of a cookie prompt's box: `consent` or `gdpr` anywhere (`moove-gdpr-modal`,
 * `onetrust-consent-sdk`, `cmplz-consent`), or `cookie` with a word for a prompt (`cookie-law-info-bar`,
 * `cookie-notice-container`, `CybotCookiebotDialog`). `cookie` alone names a recipe's card as well.
 */
const CONSENT_NAMES =
  /consent|gdpr|cookie[-_]?(?:law|notice|banner|bar|popup|modal|dialog|policy|info|settings|preferences|message|alert|warning|disclaimer|compliance|box|container|wrapper|overlay|prompt|bot|yes)/i;
/** The word every cookie prompt says, as most languages write it, Polish and Japanese as theirs. */
const COOKIE_WORD = /cookie|ciasteczk|クッキー/i;
/** A cookie prompt with its settings lists a few kinds of cookie; a longer block so named is more. */
const MAX_CONSENT_PROMPT_CHARS = 5_000;
/** ...and so many nodes at most: a box named so that holds more is read no further (nested boxes each read theirs). */
const MAX_CONSENT_PROMPT_NODES = 2_000;

/**
 * Removes the cookie prompts among `elements` (a body's elements): a box named for one (see
 * CONSENT_NAMES) whose text speaks of cookies, at most {@link MAX_CONSENT_PROMPT_CHARS} long and
 * under half of its page's text (a cookie policy's own page may name its text so). Consent plugins
 * write theirs in the page's HTML, after its content, where Readability may take it in with the
 * article or for it (`We use cookies on our website to give you the most relevant experience…`).
 * Returns how many were removed.
 */
export function dropConsentPrompts(elements: readonly Element[]): number {
  let removed = 0;
  // Read when a prompt is found (few pages have one), before any is removed.
  let bodyChars: number | undefined;
  for (const el of elements) {
    const name = el.localName;
    if (name === 'body' || name === 'main' || name === 'article' || !el.isConnected) continue;
    // Read on every element of every page: the class and the id each, not a string joining them.
    if (!namesPrompt(el.getAttribute('class')) && !namesPrompt(el.getAttribute('id'))) continue;
    const prompt = promptText(el);
    if (prompt === null || !COOKIE_WORD.test(prompt.text)) continue;
    // A cookie policy's own page (`<div class="cookie-policy">`) is that text: a prompt is a small part of its page.
    bodyChars ??= (el.ownerDocument.body?.textContent ?? '').replace(/\s+/g, '').length;
    if (prompt.chars * 2 > bodyChars) continue;
    el.remove();
    removed++;
  }
  return removed;
}

/** Whether a class or id names a cookie prompt's box (see CONSENT_NAMES); a longer one is a list of utility classes. */
function namesPrompt(name: string | null): boolean {
  return name !== null && name.length <= 300 && CONSENT_NAMES.test(name);
}

/**
 * The text of a box named for a cookie prompt and its characters but spacing, or null when it is no
 * prompt's: more than {@link MAX_CONSENT_PROMPT_CHARS} characters or {@link MAX_CONSENT_PROMPT_NODES}
 * nodes, or a page's `<h1>`. Stops there, so that boxes so named inside each other cost their size once each.
 */
function promptText(box: Element): { text: string; chars: number } | null {
  let text = '';
  let chars = 0;
  let nodes = 0;
  const stack: Node[] = [box];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (++nodes > MAX_CONSENT_PROMPT_NODES) return null;
    if (node.nodeType === 3) {
      const value = node.nodeValue ?? '';
      text += value;
      chars += value.replace(/\s+/g, '').length;
      if (chars > MAX_CONSENT_PROMPT_CHARS) return null;
    } else if (node.nodeType === 1) {
      if ((node as Element).localName === 'h1') return null;
      for (let child = node.lastChild; child !== null; child = child.previousSibling) stack.push(child);
    }
  }
  return { text, chars };
}
