/** What an XML file a person hands Aloud may be (REFI-QDA codebooks and projects, EAF): plain elements, nothing declared. */
export interface XmlLimits {
  /** characters of the whole text */
  chars: number;
  /** elements open at once */
  depth: number;
}

export const XML_LIMITS: XmlLimits = { chars: 16 * 1024 * 1024, depth: 64 };

/** XML 1.0's Char production: a character reference to anything else (NUL, most controls) names no character. */
const isXmlChar = (cp: number): boolean =>
  cp === 0x9 ||
  cp === 0xa ||
  cp === 0xd ||
  (cp >= 0x20 && cp <= 0xd7ff) ||
  (cp >= 0xe000 && cp <= 0xfffd) ||
  (cp >= 0x10000 && cp <= 0x10ffff);

/**
 * The first reason to refuse an XML text before any parser sees it, with its line, or null: over the size limit; a
 * DOCTYPE or any other markup declaration (entities could read local files, reach the network or expand without
 * bound, and REFI-QDA and EAF files need none); elements nested past the depth limit (a parser's recursion); a
 * character reference to a code point XML does not allow (`&#0;` would vanish silently). One linear scan.
 */
export function xmlGuardProblem(xml: string, limits: XmlLimits = XML_LIMITS): { line: number; message: string } | null {
  const lineAt = (index: number): number => {
    let line = 1;
    for (let i = xml.indexOf('\n'); i !== -1 && i < index; i = xml.indexOf('\n', i + 1)) line++;
    return line;
  };
  if (xml.length > limits.chars)
    return { line: 1, message: `${xml.length} characters is more than an XML file Aloud reads holds (at most ${limits.chars})` };
  let depth = 0;
  for (let i = xml.indexOf('<'); i !== -1; i = xml.indexOf('<', i + 1)) {
    const skipTo = (end: string): number => {
      const at = xml.indexOf(end, i);
      return at === -1 ? xml.length : at + end.length - 1;
    };
    if (xml.startsWith('<!--', i)) i = skipTo('-->');
    else if (xml.startsWith('<![CDATA[', i)) i = skipTo(']]>');
    else if (xml.startsWith('<?', i)) i = skipTo('?>');
    else if (xml.startsWith('<!', i)) {
      const what = /^<!([A-Za-z]*)/.exec(xml.slice(i, i + 20))![1] || 'declaration';
      return {
        line: lineAt(i),
        message: `a <!${what}> declaration is refused (entities could read files or grow without bound; REFI-QDA and EAF files declare none)`,
      };
    } else if (xml[i + 1] === '/') {
      depth--;
      i = skipTo('>');
    } else {
      // to the tag's end, past quoted attribute values (which may hold ">")
      let j = i + 1;
      let quote = '';
      for (; j < xml.length; j++) {
        const c = xml[j]!;
        if (quote) quote = c === quote ? '' : quote;
        else if (c === '"' || c === "'") quote = c;
        else if (c === '>') break;
      }
      if (xml[j - 1] !== '/' && ++depth > limits.depth) return { line: lineAt(i), message: `elements nest more than ${limits.depth} deep` };
      i = j;
    }
  }
  for (const m of xml.matchAll(/&#(x[0-9A-Fa-f]+|[0-9]+);/g)) {
    const code = m[1]!.startsWith('x') ? parseInt(m[1]!.slice(1), 16) : parseInt(m[1]!, 10);
    if (!isXmlChar(code))
      return {
        line: lineAt(m.index),
        message: `the character reference ${m[0]} names no character XML allows (a control character or NUL would vanish or corrupt the text)`,
      };
  }
  return null;
}
