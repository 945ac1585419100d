import { Ajv2020, type Options, type ValidateFunction } from 'ajv/dist/2020.js';

const instances = new Map<string, Ajv2020>();

/** What a module compiles its schemas with. */
export interface SchemaCompiler {
  compile<T = unknown>(schema: object): ValidateFunction<T>;
}

/**
 * One Ajv per set of options for the whole process, made on the first compile. The app's schemas are constants,
 * checked against the JSON Schema 2020-12 meta-schema by a test (test/core/common/io/schemaValidator.test.ts), so
 * a run does not compile the meta-schema (about 150 ms an instance) to check them again.
 */
export function sharedAjv(options: Options): SchemaCompiler {
  const key = JSON.stringify(options, Object.keys(options).sort());
  return {
    compile<T>(schema: object): ValidateFunction<T> {
      let ajv = instances.get(key);
      if (!ajv) instances.set(key, (ajv = new Ajv2020({ ...options, validateSchema: false })));
      return ajv.compile<T>(schema);
    },
  };
}

/**
 * A validator compiled on its first call: importing a module that declares one costs nothing, so a command (or the
 * CLI's --help) compiles only the schemas it uses. Its `errors` are those of the last call, as Ajv's are.
 */
export function compileOnFirstUse<T = unknown>(compile: () => ValidateFunction<T>): ValidateFunction<T> {
  let compiled: ValidateFunction<T> | null = null;
  const validate = ((data: unknown) => {
    compiled ??= compile();
    const ok = compiled(data);
    validate.errors = compiled.errors;
    return ok;
  }) as ValidateFunction<T>;
  validate.errors = null;
  return validate;
}
