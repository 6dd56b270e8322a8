import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type RouteHookName = 'onRequest' | 'preValidation' | 'onResponse';
export type RouteHook = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;
export type RouteOptionsOf = FastifyRequest['routeOptions'];

/**
 * Gives every route its own `name` hook, made by `make` from that route's options, and runs `make`'s hook for
 * the not-found options on requests no route matched. `make` returns undefined where the route needs nothing.
 *
 * Why per route: Fastify builds `request.routeOptions` afresh (an object of 13 fields) each time it is read, and
 * hooks that read it on every request made a visible share of a small request's allocations. The hook is made on
 * the route's first request, not in onRoute, because hooks of inner scopes may still replace a route's config
 * after this one ran. Callback style: a throw is passed on as the request's error; `done` must come last.
 */
export function addRouteHook(app: FastifyInstance, name: RouteHookName, make: (options: RouteOptionsOf, notFound: boolean) => RouteHook | undefined): void {
  app.addHook('onRoute', (route) => {
    let hook: RouteHook | undefined | null = null;
    const perRoute: RouteHook = (request, reply, done) => {
      if (hook === null) hook = make(request.routeOptions, false);
      if (hook === undefined) return done();
      hook(request, reply, done);
    };
    const existing = route[name] as RouteHook | RouteHook[] | undefined;
    (route as unknown as Record<RouteHookName, RouteHook[]>)[name] = [...[existing ?? []].flat(), perRoute];
  });
  let notFoundHook: RouteHook | undefined | null = null;
  app.addHook(name, (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (!request.is404) return done();
    if (notFoundHook === null) notFoundHook = make(request.routeOptions, true);
    if (notFoundHook === undefined) return done();
    notFoundHook(request, reply, done);
  });
}
