// What a route needs of the shared conventions, stated where the route is declared (as PocketBase
// binds BodyLimit on its route): its body budget and its family. The conventions read the
// declaration (the body hook the budget, families.ts the family) and never the route's path or its
// domain's settings: the domain gives the numbers. The `auth` option (auth.ts) comes with these.
//
//   .put('/v1/lab/pages/:slug', handler, { auth: true, bodyBudget: { bytes: LAB_PUBLISH_BYTES }, … })
//   .get('/threads/:id', handler, { family: 'page', … })
//
// The options add no hook: each stays on the route's record (app.routes[i].hooks), where it is read
// once, when the first request needs it.
import { Elysia } from 'elysia';
import type { Family } from './families.ts';

/**
 * A body budget larger than the service-wide one (SVC_MAX_REQUEST_BYTES, 64 KB): `bytes` of
 * serialized body at most (413 with Connection: close beyond it, before the rest is read), and
 * `chars`, the text budget a 413 reports (the route's own limit on its text).
 */
export interface BodyBudget {
  bytes: number;
  chars?: number;
}

/** The route options a route declares its needs with. */
export const routeNeeds = new Elysia({ name: 'svc-route-needs' }).macro({
  // Each returns no hook (an empty set, never undefined: Elysia stops applying a route's options at
  // an undefined one), so the value stays on the route's record.
  bodyBudget: (_budget: BodyBudget) => ({}),
  family: (_family: Family) => ({}),
});

interface RouteLike {
  method: string;
  path: string;
  hooks?: unknown;
}

/** The body budgets the routes declared, by method and route path (the router's `route`). */
export class BudgetIndex {
  private budgets: Map<string, BodyBudget> | null = null;
  constructor(private readonly routes: () => readonly RouteLike[]) {}

  /** The budget the route declared, or undefined for the service-wide one. */
  of(method: string, route: string): BodyBudget | undefined {
    if (this.budgets === null) {
      this.budgets = new Map();
      for (const r of this.routes()) {
        const budget = (r.hooks as { bodyBudget?: BodyBudget } | undefined)?.bodyBudget;
        if (budget) this.budgets.set(`${r.method} ${r.path}`, budget);
      }
    }
    return this.budgets.get(`${method} ${route}`);
  }
}
