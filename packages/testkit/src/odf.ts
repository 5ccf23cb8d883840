import { strToU8, zipSync } from 'fflate';

const NAMESPACES = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"',
  'xmlns:dc="http://purl.org/dc/elements/1.1/"',
].join(' ');

/**
 * An OpenDocument package laid out as LibreOffice writes one (`mimetype` first and stored, then
 * content.xml and meta.xml), from the XML inside `office:body` and inside `office:meta`: enough
 * for extraction tests without shipping binary fixtures.
 *
 * @example odfPackage('application/vnd.oasis.opendocument.text', '<office:text><text:p>Hi</text:p></office:text>')
 */
export function odfPackage(mimetype: string, body: string, meta = ''): Buffer {
  const xml = (root: string, inner: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><${root} ${NAMESPACES} office:version="1.3">${inner}</${root}>`;
  return Buffer.from(
    zipSync({
      mimetype: [strToU8(mimetype), { level: 0 }],
      'content.xml': strToU8(xml('office:document-content', `<office:body>${body}</office:body>`)),
      'meta.xml': strToU8(xml('office:document-meta', `<office:meta>${meta}</office:meta>`)),
    }),
  );
}
