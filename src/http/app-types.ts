import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type {} from '@fastify/swagger';

/** The Fastify instance routes are registered on: TypeBox schemas type the handlers. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** A route module: registers one operation (or a few close ones) on its scope. */
export type RouteModule = (app: App, runtime: import('../platform/dependencies.js').Runtime) => void;
