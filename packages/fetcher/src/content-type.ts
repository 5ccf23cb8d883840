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
