import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { sharedValidatorBuilder } from '../../src/http/plugins/validators.js';

type Compile = (route: { schema: unknown; httpPart: string; method: string; url: string }) => ((data: unknown) => boolean) & { errors?: unknown };
const OPTIONS = { customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true, allErrors: false, strictSchema: false } };
const builder = sharedValidatorBuilder as unknown as (externals: object, options: object) => Compile;

describe('request validators shared by the apps of a process', () => {
  it('gives every app the validator compiled for an equal schema, made again or not', () => {
    const first = builder({}, OPTIONS)({ schema: Type.Object({ limit: Type.Integer({ minimum: 1 }) }), httpPart: 'querystring', method: 'GET', url: '/a' });
    const again = builder({}, OPTIONS)({ schema: Type.Object({ limit: Type.Integer({ minimum: 1 }) }), httpPart: 'querystring', method: 'GET', url: '/b' });
    expect(again).toBe(first);
  });

  it('keeps validators apart where the schema, the part of the request or the Ajv options differ', () => {
    const compile = builder({}, OPTIONS);
    const query = compile({ schema: Type.Object({ n: Type.Integer() }), httpPart: 'querystring', method: 'GET', url: '/a' });
    const body = compile({ schema: Type.Object({ n: Type.Integer() }), httpPart: 'body', method: 'POST', url: '/a' });
    const other = compile({ schema: Type.Object({ n: Type.String() }), httpPart: 'querystring', method: 'GET', url: '/a' });
    expect(body).not.toBe(query);
    expect(other).not.toBe(query);
    const strict = builder(
      {},
      { customOptions: { ...OPTIONS.customOptions, coerceTypes: false } },
    )({
      schema: Type.Object({ n: Type.Integer() }),
      httpPart: 'querystring',
      method: 'GET',
      url: '/a',
    });
    expect(strict).not.toBe(query);
    // Each still validates as its options say: coercion of '7' only where it is on.
    expect(query({ n: '7' })).toBe(true);
    expect(strict({ n: '7' })).toBe(false);
  });
});
