// Request validators (the `schemaController` server option); they take the server's `ajv` options.
import AjvCompiler, { type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';

type BuildFromPool = BuildCompilerFromPool;
// The server's `ajv` option (plain Ajv, never JTD here).
type AjvServerOptions = Exclude<Parameters<BuildFromPool>[1], { mode: 'JTD' }>;
type RouteCompiler = FastifySchemaCompiler<unknown>;

/**
 * The parts of a request that only exist as URL or header strings, so `?limit=5` must become a
 * number. A JSON body carries its own types: coercing it would turn `{"command":5}` into "5" and
 * `{"maxLevel":"8"}` into 8, hiding a client's bug instead of answering 400.
 */
const STRING_PARTS = new Set(['querystring', 'params', 'headers']);

function withCoercion(ajv: AjvServerOptions, coerceTypes: 'array' | false): AjvServerOptions {
  return { ...ajv, customOptions: { ...ajv?.customOptions, coerceTypes } };
}

/**
 * The server's `schemaController`: each route part gets a validator that coerces for the URL's
 * strings and is strict for the body (and anything else). One per app, as Fastify's own is.
 */
export function schemaController(): NonNullable<FastifyServerOptions['schemaController']> {
  // One pool per kind of part: each keeps its own Ajv instance, so a schema compiles once per kind.
  const stringPartsPool = AjvCompiler();
  const bodyPool = AjvCompiler();
  function buildValidator(externalSchemas: Parameters<BuildFromPool>[0], ajv: AjvServerOptions): RouteCompiler {
    // NOTE: @fastify/ajv-compiler's types say its compiler takes a bare schema; at run time it takes
    // the route definition ({schema, httpPart, …}) like every Fastify schema compiler.
    const coerced = stringPartsPool(externalSchemas, withCoercion(ajv, 'array')) as unknown as RouteCompiler;
    const strict = bodyPool(externalSchemas, withCoercion(ajv, false)) as unknown as RouteCompiler;
    return (route) => (STRING_PARTS.has(route.httpPart ?? '') ? coerced(route) : strict(route));
  }
  return { compilersFactory: { buildValidator: buildValidator as unknown as BuildFromPool } };
}
