import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyTypeProvider,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Static, TSchema } from 'typebox';
import type {} from '@fastify/swagger';

declare const serialised: unique symbol;

/**
 * An answer already serialised by its route's response schema (JSON or XML), kept by the response cache. Fastify
 * sends a Buffer as it is, without the serializer.
 */
export type SerialisedAnswer = Buffer & { readonly [serialised]: true };

/**
 * TypeBox's type provider (@fastify/type-provider-typebox), with one more answer a handler may return: its record
 * already serialised, which Fastify sends as it is.
 */
export interface LedgerlinkTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends TSchema ? Static<this['schema']> : unknown;
  serializer: this['schema'] extends TSchema ? Static<this['schema']> | SerialisedAnswer : unknown;
}

/** The Fastify instance routes are registered on: TypeBox schemas type the handlers. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, LedgerlinkTypeProvider>;

/** A route module: registers one operation (or a few close ones) on its scope. */
export type RouteModule = (app: App, runtime: import('../platform/dependencies.js').Runtime) => void;
