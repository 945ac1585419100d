import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { validateXML as ValidateXml } from 'xmllint-wasm';
import type { InputProblem } from '../../common/io/inputProblem';

/** The formats' own schemas, shipped with Aloud so that `validate` needs no Debian tool (copies of ../shared/standards). */
export const XSD_FILES = {
  eaf: new URL('./schemas/EAFv3.0.xsd', import.meta.url),
  qde: new URL('./schemas/Project-mrt2019.xsd', import.meta.url),
} as const;
export type XmlSchemaName = keyof typeof XSD_FILES;

const loaded = new Map<XmlSchemaName, string>();

/**
 * xmllint-wasm starts its worker from its own folder (__dirname), which a bundle does not have: it is required at run
 * time from node_modules (the name in a variable keeps the bundler from inlining it), never bundled.
 */
function xmllint(): typeof ValidateXml {
  const name = 'xmllint-wasm';
  return (createRequire(import.meta.url)(name) as { validateXML: typeof ValidateXml }).validateXML;
}

async function schemaText(name: XmlSchemaName): Promise<string> {
  let text = loaded.get(name);
  if (text === undefined) {
    text = await readFile(XSD_FILES[name], 'utf8');
    loaded.set(name, text);
  }
  return text;
}

/** Documents validated in one run of xmllint (WebAssembly); memory grows with the documents, up to 1 GiB. */
const BATCH_BYTES = 64 * 1024 * 1024;
/** …and with their number: 3,000 small EAFs in one run went out of its memory ("memory access out of bounds") */
const BATCH_DOCUMENTS = 250;

/**
 * Every document against the named schema (libxml2's XSD validation, run as WebAssembly): one located problem per
 * error, `file` being the document's name as given. An empty list: all valid.
 */
export async function xsdProblems(name: XmlSchemaName, documents: ReadonlyArray<{ file: string; xml: string }>): Promise<InputProblem[]> {
  const schema = { fileName: name === 'eaf' ? 'EAFv3.0.xsd' : 'Project-mrt2019.xsd', contents: await schemaText(name) };
  const problems: InputProblem[] = [];
  for (let start = 0; start < documents.length;) {
    let bytes = 0;
    let end = start;
    while (end < documents.length && (end === start || (bytes + documents[end]!.xml.length < BATCH_BYTES && end - start < BATCH_DOCUMENTS)))
      bytes += documents[end++]!.xml.length;
    const batch = documents.slice(start, end);
    // xmllint sees numbered names (any real file name could look like an option); problems are mapped back
    const result = await xmllint()({
      xml: batch.map((d, i) => ({ fileName: `document${start + i}.xml`, contents: d.xml })),
      schema,
      initialMemoryPages: 256,
      maxMemoryPages: 16384,
    });
    for (const error of result.errors) {
      const index = /^document(\d+)\.xml/.exec(error.loc?.fileName ?? error.rawMessage)?.[1];
      const file = index === undefined ? (batch[0]?.file ?? '') : documents[Number(index)]!.file;
      problems.push({
        file,
        line: error.loc?.lineNumber ?? null,
        field: null,
        stage: 'schema',
        message: error.message.replace(/^Schemas validity error : /, '').trim(),
      });
    }
    start = end;
  }
  return problems;
}
