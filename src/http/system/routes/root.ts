import type { FastifyInstance } from 'fastify';
import type { App } from '../../app-types.js';
import { acceptsHtml } from '../../negotiate.js';

/** Where a browser opening the service's address lands. */
export const LANDING_PATH = '/dashboard';

const STRATEGY = 'acceptsHtml';

/**
 * A router constraint: the request's Accept names text/html. A route under it matches browsers only; any other
 * request to its path matches no route and gets the API's not-found answer, exactly as if the route did not exist.
 */
function addHtmlConstraint(scope: FastifyInstance): void {
  if (scope.hasConstraintStrategy(STRATEGY)) return;
  scope.addConstraintStrategy({
    name: STRATEGY,
    storage: () => {
      const routes = new Map<boolean, unknown>();
      return {
        get: (value: boolean) => (routes.has(value) ? routes.get(value) : null),
        set: (value: boolean, store: unknown) => void routes.set(value, store),
      };
    },
    deriveConstraint: (request) => acceptsHtml(request.headers.accept),
    mustMatchWhenDerived: false,
  } as Parameters<FastifyInstance['addConstraintStrategy']>[0]);
}

/** GET / (and HEAD /) from a browser: 302 to the developer dashboard. API clients keep the API's 404. */
export default function root(app: App): void {
  addHtmlConstraint(app as unknown as FastifyInstance);
  app.get('/', {
    constraints: { [STRATEGY]: true },
    schema: { hide: true, summary: 'Sends a browser to the dashboard' },
    handler: async (_request, reply) => reply.header('vary', 'Accept').header('cache-control', 'no-store').redirect(LANDING_PATH, 302),
  });
}
