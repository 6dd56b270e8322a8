import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type RouteHookName = 'onRequest' | 'preValidation' | 'onResponse';
export type RouteHook = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;
export type RouteOptionsOf = FastifyRequest['routeOptions'];
type Make = (options: RouteOptionsOf, notFound: boolean) => RouteHook | undefined;

/** What addRouteHook was given, per app and hook name, in the order given. */
const registries = new WeakMap<FastifyInstance, Map<RouteHookName, Make[]>>();

/**
 * Gives every route its own `name` hook, made by `make` from that route's options, and runs `make`'s hook for
 * the not-found options on requests no route matched. `make` returns undefined where the route needs nothing.
 *
 * Why per route: Fastify builds `request.routeOptions` afresh (an object of 13 fields) each time it is read, and
 * hooks that read it on every request made a visible share of a small request's allocations. The hooks are made
 * on the route's first request, not in onRoute, because hooks of inner scopes may still replace a route's config
 * after this one ran. All hooks added under one name run from one Fastify hook per route (and one for requests
 * no route matched), in the order they were added. Callback style: a throw is passed on as the request's error;
 * `done` must come last.
 */
export function addRouteHook(app: FastifyInstance, name: RouteHookName, make: Make): void {
  let byName = registries.get(app);
  if (!byName) registries.set(app, (byName = new Map()));
  let makers = byName.get(name);
  if (!makers) {
    byName.set(name, (makers = []));
    attach(app, name, makers);
  }
  makers.push(make);
}

function attach(app: FastifyInstance, name: RouteHookName, makers: readonly Make[]): void {
  app.addHook('onRoute', (route) => {
    let hook: RouteHook | null = null;
    const perRoute: RouteHook = (request, reply, done) => {
      hook ??= combined(makers, request.routeOptions, false);
      hook(request, reply, done);
    };
    const existing = route[name] as RouteHook | RouteHook[] | undefined;
    (route as unknown as Record<RouteHookName, RouteHook[]>)[name] = [...[existing ?? []].flat(), perRoute];
  });
  let notFoundHook: RouteHook | null = null;
  app.addHook(name, (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (!request.is404) return done();
    notFoundHook ??= combined(makers, request.routeOptions, true);
    notFoundHook(request, reply, done);
  });
}

const nothing: RouteHook = (_request, _reply, done) => done();

/** One hook running the hooks the makers give for these options, one after another. */
function combined(makers: readonly Make[], options: RouteOptionsOf, notFound: boolean): RouteHook {
  const hooks = makers.map((make) => make(options, notFound)).filter((hook): hook is RouteHook => hook !== undefined);
  if (hooks.length === 0) return nothing;
  if (hooks.length === 1) return hooks[0]!;
  return (request, reply, done) => {
    let i = 0;
    const next = (err?: Error): void => {
      if (err) return done(err);
      const hook = hooks[i++];
      if (!hook) return done();
      try {
        hook(request, reply, next);
      } catch (e) {
        done(e as Error);
      }
    };
    next();
  };
}

/** GET and HEAD requests carry no body Fastify would parse: routes for them alone need no body checks. */
export function takesNoBody(options: RouteOptionsOf): boolean {
  return [options.method].flat().every((method) => method === 'GET' || method === 'HEAD');
}
