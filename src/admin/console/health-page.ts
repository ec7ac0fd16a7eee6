// The console's Health page: version, replication and the replica's lag as this server knows them,
// the last backup `svc backup` recorded, database and WAL size, queue depths. Operators only: the
// backup's path and the replica's URL (its password hidden) are never shown publicly.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { iso } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import { versionInfo } from '../../lib/version.ts';
import { esc } from '../../pages/html.ts';
import { alive, LITESTREAM_MONITOR_INTERVAL, redactUrl, replicaFiles } from '../../ops/replica.ts';
import { type ReplicaStatus, replicaStatus, showPosition } from '../../ops/replica-status.ts';
import { lastBackup } from '../../ops/backup.ts';
import { adminStore } from '../store.ts';
import type { Run } from './forms.ts';

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;

/** A span of time in its largest whole unit (the page is read by a person). */
export function span(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.floor(s / 60)} min`;
  if (s < 172_800) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} days`;
}

const when = (at: number, now: number) => `${iso(at)} (${span(now - at)} ago)`;

/** The lag from the lines this server's Litestream printed (src/ops/replica-status.ts). */
function lagText(st: ReplicaStatus | null, now: number): string {
  if (!st?.shipped) return 'unknown yet: this server has seen no shipment to the replica since Litestream started';
  const last = `last shipment ${when(st.shipped.at, now)}, replica at ${showPosition(st.shipped.position)}`;
  if (st.waiting) return `behind by ${span(now - st.waiting.since)}: WAL up to ${showPosition(st.waiting.position)} waits to be shipped; ${last}`;
  return `caught up with the WAL Litestream has read (it reads new frames every ${LITESTREAM_MONITOR_INTERVAL}); ${last}`;
}

/** Litestream's message with the replica's password hidden, wherever it appears. */
function hidden(message: string, url: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {}
  const shown = redactUrl(message);
  return password ? shown.replaceAll(password, '***') : shown;
}

/** Replication as this server knows it: the setting, whether its Litestream runs (its pid file), and the lag. */
function replicationRows(ctx: AppContext, now: number): [string, string][] {
  const url = ctx.config.replica?.url;
  if (!url) return [['Replication', 'off (SVC_REPLICA_URL is not set)']];
  let pid: number | null = null;
  try {
    // The file src/ops/replica.ts writes while Litestream runs: {"litestream": pid, "svc": pid}.
    pid = Number(JSON.parse(readFileSync(replicaFiles(ctx.config.dataDir).pid, 'utf8')).litestream) || null;
  } catch {}
  const running = pid !== null && alive(pid);
  const st = replicaStatus(ctx.config.dataDir);
  const rows: [string, string][] = [
    ['Replication', `on, to ${redactUrl(url)}; Litestream ${running ? `running (pid ${pid})` : 'not running'}`],
    ['Replica lag', running ? lagText(st, now) : 'unknown: Litestream is not running'],
  ];
  if (st?.last_error) rows.push(['Litestream error', `${iso(st.last_error.at)}: ${hidden(st.last_error.message, url).slice(0, 300)}`]);
  return rows;
}

function backupText(ctx: AppContext, now: number): string {
  const b = lastBackup(ctx.db);
  if (!b) return 'none recorded: svc backup records each copy it completes here; copies made another way are not known';
  return `${when(b.at, now)}: ${mb(b.bytes)}, schema ${b.schema_version}, to ${b.file}`;
}

export function healthPage(ctx: AppContext, run: Run): string {
  const v = versionInfo();
  const now = ctx.clock.now();
  const size = adminStore(ctx.db).databaseBytes.get()!.bytes;
  let wal: number | null = null;
  try {
    wal = statSync(join(ctx.config.dataDir, 'svc.sqlite-wal')).size;
  } catch {}
  const queued = (run('outreach queue', {}) as unknown[]).length;
  const reports = (run('pubs reports', {}) as unknown[]).length;
  const appeals = (run('pubs appeals', {}) as { count: number }).count;
  const rows: [string, string][] = [
    ['Version', `${v.version} (${v.commit})`],
    ...replicationRows(ctx, now),
    ['Last backup', backupText(ctx, now)],
    ['Database', mb(size)],
    ['Write-ahead log', wal === null ? 'none' : mb(wal)],
    ['E-mails awaiting approval', String(queued)],
    ['Open guest reports', String(reports)],
    ['Open appeals', String(appeals)],
  ];
  return `<h1>Health</h1><dl>${rows.map(([k, val]) => `<dt>${esc(k)}</dt><dd>${esc(val)}</dd>`).join('')}</dl><p>Readiness for a load balancer: <a href="/readyz">/readyz</a>.</p>`;
}
