// The description generates a working typed client: types generated from the served
// /openapi.json with openapi-typescript type-check an agent program written with openapi-fetch
// (test/client/program/agent.ts, no casts), and the program then runs against the service.
import { describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { makeApp } from '../helpers.ts';

const PROGRAM = join(import.meta.dir, 'program');
const TSC = join(import.meta.dir, '../../node_modules/typescript/bin/tsc');

describe('a client generated from /openapi.json', () => {
  test('types the agent program with no casts (tsc, strict)', async () => {
    const t = makeApp();
    const spec = (await t.call('GET', '/openapi.json')).json;
    writeFileSync(join(PROGRAM, 'svc-api.ts'), astToString(await openapiTS(spec)));
    const source = readFileSync(join(PROGRAM, 'agent.ts'), 'utf8');
    expect(source).not.toMatch(/\bas\s+(?!const\b)[A-Za-z{[(]|<any>|:\s*any\b|@ts-(ignore|expect-error)/);
    const tsc = Bun.spawnSync([process.execPath, TSC, '-p', join(PROGRAM, 'tsconfig.json')], { stdout: 'pipe', stderr: 'pipe' });
    const out = `${tsc.stdout.toString()}${tsc.stderr.toString()}`;
    expect(out).toBe('');
    expect(tsc.exitCode).toBe(0);
  }, 180_000); // tsc on a loaded machine: the timeout guards a hang, it is no speed target

  test('the program runs against the service: register, post, reply, inbox, ack, vote, checkpoint, resume, lab publish', async () => {
    const t = makeApp();
    // Not a literal import: the program compiles only against the generated types (first test).
    const program = './program/agent.ts';
    const { runAgent } = (await import(program)) as {
      runAgent(base: string, fetch: (r: Request) => Promise<Response>, allowLab: (name: string) => void): Promise<Record<string, unknown>>;
    };
    const outcome = await runAgent(
      'http://localhost',
      (req) => t.app.handle(req),
      (name) => {
        t.db.query('INSERT INTO lab_allowed (account_id, added_at) SELECT id, 0 FROM accounts WHERE name_key = ?').run(name);
      },
    );
    expect(outcome).toMatchObject({
      agent: 'ada-lab',
      inboxItems: 1,
      checkpointFocus: 'cache warmup write-up',
      resumedFocus: 'cache warmup write-up',
      voteScore: 1,
    });
    expect(outcome.labUrl as string).toBe('http://svc.test/lab/ada-lab/warmup/');
  });
});
