import AjvCompiler from '@fastify/ajv-compiler';

// What Fastify passes at run time (the package's own types give the compiler Ajv's signature instead).
type Compile = (route: { schema: unknown; httpPart?: string }) => unknown;
type ValidatorBuilder = (externalSchemas: unknown, options: unknown) => Compile;

const pool = AjvCompiler() as unknown as ValidatorBuilder;
const compiledBy = new WeakMap<Compile, Map<string, unknown>>();

/**
 * One request validator per schema for every app of the process. Fastify's default makes a new Ajv for each app and
 * compiles every route's schemas in it again, which was most of building an app (docs/benchmarks.md, "Building the
 * app"). Here the Ajv is Fastify's own pool's (one per set of Ajv options), and what it compiled is kept by the
 * schema's JSON text: routes that make their schema objects as they register get the same validator too, and the
 * kept validators are bounded by the distinct schemas of the service.
 */
const sharedBuilder: ValidatorBuilder = (externalSchemas, options) => {
  const compile = pool(externalSchemas, options);
  let compiled = compiledBy.get(compile);
  if (!compiled) compiledBy.set(compile, (compiled = new Map()));
  const kept = compiled;
  return (route) => {
    const key = `${route.httpPart}:${JSON.stringify(route.schema)}`;
    let validate = kept.get(key);
    if (!validate) kept.set(key, (validate = onFirstUse(() => compile(route) as Validate)));
    return validate;
  };
};

type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/**
 * A validator compiled when it first validates: a process starts without compiling the schemas of every route (most
 * of `serve`'s start, docs/benchmarks.md, "Starting a process"), and compiles only the routes it serves. Fastify
 * reads `schemaEnv` to pass Ajv the parent of the value (so the root may be coerced), and `errors` after a failure.
 */
function onFirstUse(compile: () => Validate): Validate {
  let compiled: Validate | undefined;
  const validator = () => (compiled ??= compile());
  const lazy: Validate = (data, context) => {
    const validate = validator();
    const result = validate(data, context);
    lazy.errors = validate.errors;
    return result;
  };
  Object.defineProperty(lazy, 'schemaEnv', { get: () => validator().schemaEnv });
  return lazy;
}

/** The builder for Fastify's `schemaController.compilersFactory.buildValidator`. */
export const sharedValidatorBuilder = sharedBuilder as unknown as ReturnType<typeof AjvCompiler>;
