// The app for the votes and pins tests: the shared harness (the app mounts the votes and pins
// routes like every domain's), under the name these tests import.
import { makeApp } from '../helpers.ts';

export const makeVotesApp = (env: Record<string, string> = {}, start?: string) => makeApp(env, start);

export type T = ReturnType<typeof makeVotesApp>;
