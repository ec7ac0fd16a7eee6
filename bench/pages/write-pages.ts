// What one write costs in pages, system calls and bytes, deterministically (load changes the time
// a write takes, never what it reads or writes):
//
//   bun bench/pages/write-pages.ts 10k|1m vote|vote-old|reply [--writes N] [--warmup W] [--batch K] [--reads|--cpu]
//
// The service in this process (the app of src/app.ts on a copy of the cached bench corpus, opened
// as `svc serve` opens it: src/db/open.ts's pragmas, the migrations, group commit), W writes to
// warm its page cache, then N more, one at a time, each its own commit, as an agent sends them:
//   vote      POST /votes by the corpus's heavy voters on the 4,000 newest roots (bench/run.ts's targets)
//   vote-old  the same voters on posts and replies drawn evenly from the whole board (old posts)
//   reply     POST /v1/posts/{id}/replies by the writers on the 500 newest roots (bench/run.ts's)
// and prints, per measured write: read() and pread() calls and their bytes, write calls and their
// bytes (the WAL's frames and a checkpoint's copies: /proc/self/io; what goes to the device), the
// WAL frames of its commit and which table or index each belongs to (SQLite's dbstat), and the
// process CPU (indicative only: the machine's load changes it, the counts do not). PAGES_PRAGMAS
// tries other page cache or mmap settings than src/db/open.ts's (e.g. "cache_size = -65536;
// mmap_size = 0"). --reads runs the same writes under `strace -e pread64` and adds the pages read
// by system call per table or index (the database file's pages by their number; the WAL's frames,
// a checkpoint's reads included, as a count). --cpu leaves out the pages by B-tree (a read of the
// whole file): for repeated CPU runs.
import { Database } from 'bun:sqlite';
import { closeSync, existsSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../../src/app.ts';
import { systemClock } from '../../src/clock.ts';
import { loadConfig, serviceContext } from '../../src/compose.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { benchKey, type CorpusMeta, ensureCorpus, freshDataDir } from '../corpus.ts';
import { ROOT } from '../lib.ts';
import { textGen } from '../text.ts';

type Kind = 'vote' | 'vote-old' | 'reply';
const KINDS: readonly Kind[] = ['vote', 'vote-old', 'reply'];

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};

/** The WAL's frames as commits append them: salt and the next frame to read. */
class WalReader {
  private salt = [0, 0];
  private next = 0;
  constructor(private readonly file: string) {}
  /** Page numbers of the frames written since the last call (a restarted log is read from its start). */
  frames(): number[] {
    if (!existsSync(this.file)) return [];
    const wal = readFileSync(this.file);
    if (wal.length < 32) return [];
    const salt = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
    if (salt[0] !== this.salt[0] || salt[1] !== this.salt[1]) {
      this.salt = salt;
      this.next = 0;
    }
    const size = wal.readUInt32BE(8);
    const pages: number[] = [];
    for (let at = 32 + this.next * (24 + size); at + 24 + size <= wal.length; at += 24 + size) {
      if (wal.readUInt32BE(at + 8) !== salt[0] || wal.readUInt32BE(at + 12) !== salt[1]) break;
      pages.push(wal.readUInt32BE(at));
      this.next++;
    }
    return pages;
  }
}

/** This process's I/O counters and page faults (all its threads). */
function procIo(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of readFileSync('/proc/self/io', 'utf8').split('\n')) {
    const [k, v] = line.split(':');
    if (k && v) out[k.trim()] = Number(v);
  }
  // /proc/self/stat after the command's closing parenthesis: minflt is the 8th field, majflt the 10th.
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  out.minflt = Number(f[7]);
  out.majflt = Number(f[9]);
  return out;
}

/** A pread64 of a named marker file: where the measured writes start and end in an strace log. */
function mark(dir: string, name: string): void {
  const file = join(dir, name);
  writeFileSync(file, 'x');
  const fd = openSync(file, 'r');
  readSync(fd, Buffer.alloc(1), 0, 1, 0);
  closeSync(fd);
}

function voteTargets(db: Database, meta: CorpusMeta, voters: string[], old: boolean, n: number): string[] {
  const own = new Set(voters);
  const voted = new Set<string>();
  const byVoter = db.query<{ target_id: string }, [string]>('SELECT target_id FROM votes WHERE voter_id = ?');
  for (const v of voters) for (const r of byVoter.all(v)) voted.add(r.target_id);
  const ok = (r: { id: string; author_id: string; prefix: string | null } | null) =>
    r !== null && !own.has(r.author_id) && !voted.has(r.id) && !(r.prefix && /^started/i.test(r.prefix));
  if (!old) {
    const rows = db
      .query<{ id: string; author_id: string; prefix: string | null }, [number]>(
        "SELECT id, author_id, prefix FROM posts WHERE deleted_at IS NULL AND kind = 'post' ORDER BY seq DESC LIMIT ?",
      )
      .all(n * 2 + voted.size);
    return rows
      .filter(ok)
      .map((r) => r.id)
      .slice(0, n);
  }
  // Old posts: seq drawn evenly over the board (a fixed stream: every run votes on the same posts).
  const bySeq = db.query<{ id: string; author_id: string; prefix: string | null }, [number]>(
    `SELECT p.id, p.author_id, p.prefix FROM posts p WHERE p.seq = ? AND p.deleted_at IS NULL
       AND (p.kind = 'post' OR EXISTS (SELECT 1 FROM posts r WHERE r.id = p.thread_id AND r.deleted_at IS NULL))`,
  );
  const rand = textGen(7).rand;
  const out = new Set<string>();
  while (out.size < n) {
    const r = bySeq.get(1 + Math.floor(rand() * meta.posts));
    if (ok(r)) out.add(r!.id);
  }
  return [...out];
}

async function measure(size: string, kind: Kind, writes: number, warmup: number, markDir: string | null) {
  const { meta, file } = await ensureCorpus(size, process.env.SVC_BIN ?? join(ROOT, 'dist/svc'));
  const dataDir = freshDataDir(file, `pages-${size}`);
  try {
    const config = loadConfig({ SVC_DATA_DIR: dataDir, SVC_LOG_REQUESTS: 'off', SVC_BASE_URL: 'http://svc.test' });
    const db = openDatabase(dataDir);
    // PAGES_PRAGMAS="cache_size = -65536; mmap_size = 0": settings to try against src/db/open.ts's own.
    for (const p of (process.env.PAGES_PRAGMAS ?? '').split(';').filter((p) => p.trim())) db.exec(`PRAGMA ${p}`);
    migrate(db);
    const ctx = serviceContext(config, db, systemClock);
    const app = createApp(ctx);
    const total = warmup + writes;
    const requests: (() => Request)[] = [];
    const headers = (key: string) => ({
      'x-agent-protocol': 'svc/1',
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: `Bearer ${key}`,
      'idempotency-key': crypto.randomUUID(),
    });
    if (kind === 'reply') {
      const [w0, w1] = meta.roles.writers;
      const threads = meta.recent_roots.slice(-500);
      const tg = textGen(11);
      const bodies = Array.from({ length: 400 }, () => tg.body());
      for (let n = 0; n < total; n++) {
        const key = benchKey(w0 + (n % (w1 - w0)));
        const body = JSON.stringify({ body: bodies[n % bodies.length] });
        requests.push(() => new Request(`http://localhost/v1/posts/${threads[n % threads.length]}/replies`, { method: 'POST', headers: headers(key), body }));
      }
    } else {
      const [v0, v1] = meta.roles.voters;
      const voters = meta.agent_ids.slice(v0, v1);
      const ro = new Database(join(dataDir, 'svc.sqlite'), { readonly: true });
      const targets = voteTargets(ro, meta, voters, kind === 'vote-old', 4000);
      ro.close();
      // bench/run.ts's walk: voter k takes the targets in its own order, no vote repeats.
      for (let n = 0; n < total; n++) {
        const k = n % voters.length;
        const t = (Math.floor(n / voters.length) + k * 61) % targets.length;
        const body = JSON.stringify({ target_id: targets[t], value: 1 });
        requests.push(() => new Request('http://localhost/votes', { method: 'POST', headers: headers(benchKey(v0 + k)), body }));
      }
    }
    const send = async (n: number) => {
      const res = await app.handle(requests[n]!());
      if (res.status >= 300) throw new Error(`${kind} ${n}: ${res.status} ${(await res.text()).slice(0, 300)}`);
      await res.arrayBuffer();
    };
    for (let n = 0; n < warmup; n++) await send(n);
    const wal = new WalReader(join(dataDir, 'svc.sqlite-wal'));
    wal.frames();
    const written: number[][] = [];
    // Counted around each write only: reading the WAL between writes is this script's, not the write's.
    const io: Record<string, number> = {};
    let cpuUs = 0;
    let systemUs = 0;
    // PAGES_AB="mmap_size = 0 | mmap_size = 2147418112": the settings take turns, PAGES_AB_BLOCK (20)
    // writes each, in this one process (the same load, the same warm state): CPU per setting.
    const ab = (process.env.PAGES_AB ?? '').split('|').filter((x) => x.trim());
    const abCpu = ab.map(() => ({ us: 0, writes: 0 }));
    const abBlock = Number(process.env.PAGES_AB_BLOCK ?? 20);
    let applied = -1;
    // --batch K: K writes sent together, so group commit commits them at once (as under load):
    // a commit's fixed cost (its sync) is then shared and what each write touches stands out.
    const batch = arg('--batch', 1);
    for (let n = warmup; n < total; n += batch) {
      const turn = ab.length ? Math.floor((n - warmup) / abBlock) % ab.length : -1;
      if (turn !== applied && turn >= 0) {
        for (const p of ab[turn]!.split(';').filter((x) => x.trim())) db.exec(`PRAGMA ${p}`);
        applied = turn;
      }
      if (markDir) mark(markDir, 'measure-start');
      const io0 = procIo();
      const cpu0 = process.cpuUsage();
      await Promise.all(Array.from({ length: Math.min(batch, total - n) }, (_, i) => send(n + i)));
      const cpu = process.cpuUsage(cpu0);
      const io1 = procIo();
      if (markDir) mark(markDir, 'measure-end');
      cpuUs += cpu.user + cpu.system;
      systemUs += cpu.system;
      if (turn >= 0) {
        abCpu[turn]!.us += cpu.user + cpu.system;
        abCpu[turn]!.writes += Math.min(batch, total - n);
      }
      for (const k of Object.keys(io1)) io[k] = (io[k] ?? 0) + io1[k]! - io0[k]!;
      written.push(wal.frames());
    }
    // What reading /proc/self/io itself adds to a difference of two readings.
    const [c0, c1] = [procIo(), procIo()];
    const per = (k: string) => (io[k]! - Math.ceil(writes / batch) * (c1[k]! - c0[k]!)) / writes;
    const pragmas = {
      cache_size: db.query<{ cache_size: number }, []>('PRAGMA cache_size').get()!.cache_size,
      mmap_size: db.query<{ mmap_size: number }, []>('PRAGMA mmap_size').get()?.mmap_size ?? 0,
    };
    // Owners of the pages: a passive checkpoint first would change nothing dbstat sees (it reads through the WAL).
    const owner = new Map<number, string>();
    const dbstat = db.query<{ name: string; pageno: number }, []>('SELECT name, pageno FROM dbstat');
    if (!process.argv.includes('--cpu')) for (const r of dbstat.all()) owner.set(r.pageno, r.name);
    const byTree = new Map<string, number>();
    for (const pages of written) for (const p of new Set(pages)) byTree.set(owner.get(p) ?? '(new page)', (byTree.get(owner.get(p) ?? '(new page)') ?? 0) + 1);
    db.close();
    return {
      size,
      kind,
      writes,
      warmup,
      db_mb: Math.round(statSync(file).size / 1e6),
      pragmas,
      per_write: {
        read_calls: round(per('syscr')),
        read_kb: round(per('rchar') / 1024),
        write_calls: round(per('syscw')),
        written_kb: round(per('wchar') / 1024),
        // The kernel's write_bytes: NOT the device's bytes. It counts each clean page-cache folio
        // a write dirties whole, and a file's folios are up to megabytes (bench/pages/write-bytes.ts):
        // the larger and more scattered the file, the more it overstates.
        proc_write_bytes_kb: round(per('write_bytes') / 1024),
        wal_frames: round(written.reduce((s, p) => s + p.length, 0) / writes),
        // A memory-mapped page read for the first time is a fault instead of a read call.
        page_faults: round(per('minflt') + per('majflt')),
        cpu_us: Math.round(cpuUs / writes),
        cpu_system_us: Math.round(systemUs / writes),
      },
      ...(ab.length ? { cpu_us_by_setting: Object.fromEntries(ab.map((x, i) => [x.trim(), Math.round(abCpu[i]!.us / abCpu[i]!.writes)])) } : {}),
      wal_pages_by_tree: Object.fromEntries([...byTree].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, round(v / writes, 2)])),
      owner,
      dataDir,
    };
  } finally {
    if (!process.env.PAGES_KEEP) rmSync(dataDir, { recursive: true, force: true });
  }
}

const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

/** The pread64 calls between the markers of an strace log: database pages by number, WAL reads apart. */
function readsFromStrace(log: string): { db: number[]; wal: number; other: number } {
  let on = false;
  const db: number[] = [];
  let wal = 0;
  let other = 0;
  for (const line of log.split('\n')) {
    if (line.includes('measure-start>')) on = true;
    else if (line.includes('measure-end>')) on = false;
    else if (on) {
      const m = /pread64\(\d+<([^>]+)>, .*?, (\d+), (\d+)\) = (-?\d+)/.exec(line);
      if (!m) continue;
      if (m[1]!.endsWith('svc.sqlite')) db.push(Math.floor(Number(m[3]) / 4096) + 1);
      else if (m[1]!.endsWith('svc.sqlite-wal')) wal++;
      else other++;
    }
  }
  return { db, wal, other };
}

if (import.meta.main) {
  const size = process.argv[2] ?? '10k';
  const kind = (process.argv[3] ?? 'vote') as Kind;
  if (!KINDS.includes(kind)) throw new Error(`kind: one of ${KINDS.join(', ')}`);
  const writes = arg('--writes', 300);
  const warmup = arg('--warmup', 300);
  const markDir = process.env.PAGES_MARK_DIR ?? null;
  if (process.argv.includes('--reads') && !markDir) {
    // Again under strace, this script measuring; its pread64 log read here.
    const dir = `/tmp/svc-pages-${process.pid}`;
    rmSync(dir, { recursive: true, force: true });
    Bun.spawnSync(['mkdir', '-p', dir]);
    const log = join(dir, 'strace.log');
    const args = process.argv.slice(2).filter((a) => a !== '--reads');
    const child = Bun.spawnSync(
      ['strace', '-f', '-qq', '-y', '-e', 'trace=pread64', '-o', log, process.execPath, import.meta.path, ...args, '--owners', join(dir, 'owners.json')],
      {
        env: { ...process.env, PAGES_MARK_DIR: dir },
        stdout: 'pipe',
        stderr: 'inherit',
      },
    );
    if (child.exitCode !== 0) throw new Error('the measuring run failed');
    const result = JSON.parse(child.stdout.toString().trim().split('\n').at(-1)!);
    const owner = new Map<number, string>(JSON.parse(readFileSync(join(dir, 'owners.json'), 'utf8')));
    const reads = readsFromStrace(readFileSync(log, 'utf8'));
    const byTree = new Map<string, number>();
    for (const p of reads.db) byTree.set(owner.get(p) ?? '(new page)', (byTree.get(owner.get(p) ?? '(new page)') ?? 0) + 1);
    result.pread64_per_write = { db_pages: round(reads.db.length / writes), wal_frames: round(reads.wal / writes), other: round(reads.other / writes) };
    result.pages_read_by_tree = Object.fromEntries([...byTree].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, round(v / writes, 2)]));
    rmSync(dir, { recursive: true, force: true });
    console.log(JSON.stringify(result, null, 1));
  } else {
    const { owner, dataDir: _d, ...result } = await measure(size, kind, writes, warmup, markDir);
    const i = process.argv.indexOf('--owners');
    if (i > 0) writeFileSync(process.argv[i + 1]!, JSON.stringify([...owner]));
    console.log(markDir ? JSON.stringify(result) : JSON.stringify(result, null, 1));
  }
  process.exit(0);
}
