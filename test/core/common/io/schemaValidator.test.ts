import { Ajv2020 } from 'ajv/dist/2020.js';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversationMessageJsonSchema } from '../../../../core/common/items/conversations';
import { csvRowJsonSchema } from '../../../../core/common/export/exportCsvColumns';
import { exportReceiptJsonSchema } from '../../../../core/common/export/exportReceipt';
import { exportRecordJsonSchemas } from '../../../../core/common/export/exportRecord';
import { itemRecordJsonSchema } from '../../../../core/common/items/itemsSource';
import { compileOnFirstUse, sharedAjv } from '../../../../core/common/io/schemaValidator';
import { projectConfigJsonSchema } from '../../../../core/common/project/projectConfig';
import { processRewardReceiptJsonSchema, processRewardRecordJsonSchema } from '../../../../core/common/reasoning/processReward';
import { sessionEventDataSchemas } from '../../../../core/common/session/sessionEventSchema';
import { packManifestJsonSchema } from '../../../../core/common/packs/sessionPack';
import { codebookJsonSchema } from '../../../../core/common/codebook/codebook';
import { deidentifyJsonSchema } from '../../../../core/common/deidentify/deidentifyList';
import { unitsReceiptSchema } from '../../../../core/common/export/codingExport';

describe("the app's JSON Schemas", () => {
  it('are valid JSON Schema 2020-12 (runs compile them without checking against the meta-schema)', () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    const schemas: Record<string, object> = {
      ...Object.fromEntries(Object.entries(exportRecordJsonSchemas).map(([v, s]) => [`export record v${v}`, s])),
      'export csv row v2': csvRowJsonSchema(2),
      'export csv row v3': csvRowJsonSchema(3),
      'export receipt': exportReceiptJsonSchema,
      item: itemRecordJsonSchema,
      'conversation message': conversationMessageJsonSchema,
      'project config': projectConfigJsonSchema,
      'process-reward record': processRewardRecordJsonSchema,
      'process-reward receipt': processRewardReceiptJsonSchema,
      'session pack manifest': packManifestJsonSchema,
      codebook: codebookJsonSchema,
      'deidentify.yaml': deidentifyJsonSchema,
      'units receipt': unitsReceiptSchema,
      ...Object.fromEntries(Object.entries(sessionEventDataSchemas).map(([type, s]) => [`event ${type}`, s])),
    };
    for (const [name, schema] of Object.entries(schemas)) expect(ajv.validateSchema(schema), `${name}: ${ajv.errorsText()}`).toBe(true);
  });

  it('compile on first use, with the errors of the last call', () => {
    let compiled = 0;
    const validate = compileOnFirstUse(() => {
      compiled++;
      return sharedAjv({ allErrors: true, strict: true }).compile({
        type: 'object',
        properties: { a: { type: 'number' } },
        required: ['a'],
      });
    });
    expect(compiled).toBe(0);
    expect(validate({})).toBe(false);
    expect(validate.errors?.[0]?.keyword).toBe('required');
    expect(validate({ a: 1 })).toBe(true);
    expect(validate.errors).toBeNull();
    expect(compiled).toBe(1);
  });

  it('no module of the app makes its own Ajv: one compiled at import checks its schema against the meta-schema at every start (~150 ms each)', () => {
    const core = path.resolve(__dirname, '../../../../core');
    const own = (readdirSync(core, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && path.basename(f) !== 'schemaValidator.ts')
      .filter((f) =>
        /new Ajv(2020)?\(|ajv\.compile\(/.test(readFileSync(path.join(core, f), 'utf8').replace(/compileOnFirstUse\(\(\) => [^\n]*/g, '')),
      );
    expect(own).toEqual([]);
  });
});
