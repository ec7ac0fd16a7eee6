// Preloaded by bunfig.toml ([test] preload): a hook in a preloaded file is the whole run's, so this
// one runs once, after every test file of the process (test/temp.ts).
import { afterAll } from 'bun:test';
import { runAtEnd } from './temp.ts';

afterAll(runAtEnd);
