/** Characters XML 1.0 cannot carry in any form (not even as a character reference): most C0 controls, lone surrogates, U+FFFE/U+FFFF. */
const XML_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/u;

/** The first character XML cannot hold, as "U+0001 at position 5", or null when the text is fine. */
export function xmlForbiddenCharacter(text: string): string | null {
  const found = XML_FORBIDDEN.exec(text);
  if (!found) return null;
  return `U+${found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} at position ${found.index + 1}`;
}

/** Text for element content or a double-quoted attribute; CR and tabs as references so that parsers keep them. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"\r\n\t]/g, (c) => XML_ESCAPES[c]!);
}

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\r': '&#13;',
  '\n': '&#10;',
  '\t': '&#9;',
};

/** Element content keeps line breaks as they are (only attributes need them as references). */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>\r]/g, (c) => XML_ESCAPES[c]!);
}

/** `name="value"` pairs, in the order given, values escaped; undefined values left out. */
export function xmlAttributes(attributes: Readonly<Record<string, string | number | boolean | undefined>>): string {
  return Object.entries(attributes)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('');
}
