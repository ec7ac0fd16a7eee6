// deploy/svc.service, checked by systemd itself: `systemd-analyze verify` on a copy whose ExecStart
// names an executable that exists here (verify refuses a missing one), with no warning at all, and
// `systemd-analyze security` printing the unit's exposure. Skipped, saying so, where systemd-analyze
// is not installed (apt-get install -y systemd).
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const UNIT = readFileSync(join(import.meta.dir, '../../deploy/svc.service'), 'utf8');
const analyze = Bun.which('systemd-analyze');
const dir = mkdtempSync(join(tmpdir(), 'svc-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The unit with its ExecStart pointed at a stand-in executable, written as svc.service (the name it is installed under). */
function placed(text: string): string {
  const stub = join(dir, 'svc');
  writeFileSync(stub, '#!/bin/sh\nexit 0\n');
  chmodSync(stub, 0o755);
  const sub = mkdtempSync(join(dir, 'unit-'));
  const file = join(sub, 'svc.service');
  writeFileSync(file, text.replaceAll('/usr/local/bin/svc', stub));
  return file;
}

function verify(file: string): { code: number; out: string } {
  const p = Bun.spawnSync([analyze!, 'verify', file], { stdout: 'pipe', stderr: 'pipe' });
  return { code: p.exitCode ?? -1, out: `${p.stdout.toString()}${p.stderr.toString()}`.trim() };
}

/** The unit's settings, by key (a key given twice keeps every value). */
function settings(text: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (m) found.set(m[1]!, [...(found.get(m[1]!) ?? []), m[2]!]);
  }
  return found;
}

describe('deploy/svc.service', () => {
  test('runs svc serve on /var/lib/svc as a dynamic user, sandboxed, restarted on failure and stopped with SIGTERM', () => {
    const s = settings(UNIT);
    const one = (k: string) => {
      expect(s.get(k), k).toHaveLength(1);
      return s.get(k)![0]!;
    };
    expect(one('ExecStart')).toBe('/usr/local/bin/svc serve --data /var/lib/svc');
    expect([one('DynamicUser'), one('StateDirectory'), one('ReadWritePaths'), one('ProtectSystem')]).toEqual(['yes', 'svc', '/var/lib/svc', 'strict']);
    for (const k of ['NoNewPrivileges', 'PrivateTmp', 'ProtectHome', 'PrivateDevices', 'RestrictSUIDSGID']) expect(one(k), k).toBe('yes');
    expect([one('KillSignal'), one('Restart')]).toEqual(['SIGTERM', 'on-failure']);
    expect(one('TimeoutStopSec')).toMatch(/^\d+s$/);
    expect(one('MemoryMax')).toMatch(/^\d+[KMG]$/);
    expect(one('CapabilityBoundingSet')).toBe('');
    // Bun's JavaScript engine writes the code it compiles: W^X memory would stop it.
    expect(s.has('MemoryDenyWriteExecute')).toBe(false);
    expect(s.get('Environment')).toEqual(expect.arrayContaining(['SVC_HOST=127.0.0.1']));
  });

  test('passes systemd-analyze verify with no warning', () => {
    if (!analyze) return console.log('skipped: systemd-analyze is not installed (apt-get install -y systemd)');
    const r = verify(placed(UNIT));
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
    // The check sees what it is for: a misspelt key and a missing executable.
    expect(verify(placed(UNIT.replace('ProtectSystem=', 'ProtectSytem='))).out).toContain("Unknown key 'ProtectSytem'");
    const missing = join(dir, 'unit-missing.service');
    writeFileSync(missing, UNIT.replaceAll('/usr/local/bin/svc', join(dir, 'no-such-svc')));
    expect(verify(missing).out).toContain('is not executable');
  });

  test('prints its exposure as systemd-analyze security rates it', () => {
    if (!analyze) return console.log('skipped: systemd-analyze is not installed (apt-get install -y systemd)');
    const p = Bun.spawnSync([analyze, 'security', '--offline=true', '--no-pager', placed(UNIT)], { stdout: 'pipe', stderr: 'pipe' });
    const line = `${p.stdout.toString()}${p.stderr.toString()}`.split('\n').find((l) => l.includes('Overall exposure level'));
    expect(line).toBeDefined();
    console.log(`systemd-analyze security: ${line!.replace(/^.*?Overall/, 'Overall').trim()}`);
    const level = Number(/level for [^:]+: ([\d.]+)/.exec(line!)?.[1]);
    // 0 is a locked-down unit, 10 an unprotected one; this unit is sandboxed on every axis svc allows.
    expect(level).toBeLessThan(3);
  });
});
