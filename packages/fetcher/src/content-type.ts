/** A parsed Content-Type header. */
export interface ParsedContentType {
  /** `type/subtype` in lower case; empty when the header is missing or malformed. */
  readonly mime: string;
  /** The `charset` parameter in lower case, without quotes, when present. */
  readonly charset: string | undefined;
}

/**
 * Parses a Content-Type header leniently, as browsers do.
 *
 * @example parseContentType('text/html; Charset="GBK"') // { mime: 'text/html', charset: 'gbk' }
 */
export function parseContentType(header: string | undefined): ParsedContentType {
  if (!header) return { mime: '', charset: undefined };
  const [typePart = '', ...params] = header.split(';');
  const mime = typePart.trim().toLowerCase();
  let charset: string | undefined;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const value = param
      .slice(eq + 1)
      .trim()
      .replace(/^["']|["']$/g, '')
      .trim()
      .toLowerCase();
    if (value !== '') charset = value;
    break;
  }
  return { mime: /^[\w.+-]+\/[\w.+-]+$/.test(mime) ? mime : '', charset };
}

/** Whether a MIME type is text the crawler decodes (HTML, XML, plain text, JSON, markdown). */
export function isTextualMime(mime: string): boolean {
  return mime.startsWith('text/') || /[/+](xml|json|xhtml\+xml)$/.test(mime);
}

/** Types that say nothing about the body; browsers sniff them as they sniff a missing Content-Type. */
const UNKNOWN_MIMES: ReadonlySet<string> = new Set(['', 'unknown/unknown', 'application/unknown']);

/** WHATWG MIME Sniffing's HTML signatures: the first tag of a body of unknown type that makes it HTML. */
const HTML_SIGNATURES = [
  '<!doctype html',
  '<html',
  '<head',
  '<script',
  '<iframe',
  '<h1',
  '<div',
  '<font',
  '<table',
  '<a',
  '<style',
  '<title',
  '<b',
  '<body',
  '<br',
  '<p',
  '<!--',
];

/** The starts of a whole HTML document: a `text/plain` body needs one to count as HTML. */
const DOCUMENT_SIGNATURES = ['<!doctype html', '<html'];

const isSpace = (byte: number | undefined): boolean =>
  byte === 0x09 || byte === 0x0a || byte === 0x0c || byte === 0x0d || byte === 0x20;

/** Whether the bytes at `at` spell the signature (ASCII case ignored), then whitespace or `>`. */
function matchesTag(body: Uint8Array, at: number, signature: string): boolean {
  for (let k = 0; k < signature.length; k++) {
    const byte = body[at + k];
    if (byte === undefined) return false;
    const lower = byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
    if (lower !== signature.charCodeAt(k)) return false;
  }
  // The spec's "tag-terminating byte" is a space or `>`; `<html\n lang=...>` is as common on the
  // web, so any HTML whitespace ends the tag here.
  const next = body[at + signature.length];
  return next === 0x3e || isSpace(next);
}

/** Whether the body, after a UTF-8 byte order mark and whitespace, starts with one of the tags. */
function startsWithTag(body: Uint8Array, signatures: readonly string[]): boolean {
  let at = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;
  while (isSpace(body[at])) at++;
  return signatures.some((signature) => matchesTag(body, at, signature));
}

/** `%PDF-`: how every PDF starts. */
const PDF_SIGNATURE = [0x25, 0x50, 0x44, 0x46, 0x2d];
/** How the containers of Office files start: OLE2 (doc, xls, ppt) and zip (docx, xlsx, pptx, OpenDocument). */
const PACKAGE_SIGNATURES = [
  [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
  [0x50, 0x4b, 0x03, 0x04],
];

/**
 * The MIME type a response is handled as: the declared one (as {@link parseContentType} gives it),
 * except that a body with no usable type whose first tag is HTML is HTML, as browsers sniff it, and
 * so is a `text/plain` body that starts a whole HTML document; and a body served as text that
 * starts as a PDF does is a PDF (a server naming every file `text/html`), not binary content; one
 * that starts as an Office file's container does is `application/octet-stream`, a file its name or
 * its bytes type (an `.xls` served as `text/plain`, an `.odt` as `text/html`).
 *
 * @example computedMime('', Buffer.from('<!DOCTYPE html><title>Hi</title>')) // 'text/html'
 * @example computedMime('text/plain', Buffer.from('<p>a tag quoted in a note</p>')) // 'text/plain'
 * @example computedMime('text/html', Buffer.from('%PDF-1.7')) // 'application/pdf'
 */
export function computedMime(mime: string, body: Uint8Array): string {
  if (isTextualMime(mime) && startsWith(body, PDF_SIGNATURE)) return 'application/pdf';
  if (isTextualMime(mime) && PACKAGE_SIGNATURES.some((signature) => startsWith(body, signature))) {
    return 'application/octet-stream';
  }
  if (UNKNOWN_MIMES.has(mime)) return startsWithTag(body, HTML_SIGNATURES) ? 'text/html' : mime;
  // Browsers never read text/plain as HTML (an uploaded file must not run script), so only a body
  // that is plainly a whole document counts: a search engine runs no script, and indexing
  // `<!doctype html><html>...` as words helps nobody.
  if (mime === 'text/plain' && startsWithTag(body, DOCUMENT_SIGNATURES)) return 'text/html';
  return mime;
}

function startsWith(body: Uint8Array, signature: readonly number[]): boolean {
  return signature.every((byte, i) => body[i] === byte);
}
