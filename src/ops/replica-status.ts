// What this server knows of its replica's lag, read from the lines its Litestream prints (0.3.13,
// JSON logging at debug level: src/ops/replica.ts). Litestream names WAL positions as
// "GENERATION/INDEX:OFFSET" (INDEX the WAL file's number in hex, OFFSET bytes into it):
//
// - `replica sync` (debug): the replica starts shipping up to this position of its shadow WAL;
// - `wal segment written` (info): the segment from `position`, `sz` bytes long, is on the replica;
// - `snapshot written` (info): a snapshot of the database at `position` is on the replica.
//
// The replica holds everything up to the last shipped position. When that is at or past the last
// position Litestream set out to ship, the replica is caught up with the WAL Litestream has read
// (it reads new frames every monitor-interval, 100 ms); otherwise the lag is the age of the oldest
// position Litestream set out to ship and has not shipped. Nothing here is guessed: before the
// first shipment, or from a Litestream that prints otherwise, the state says it does not know.
/** One structured line of the Litestream child's log, as src/ops/replica.ts forwards it. */
export type LogLine = Record<string, unknown>;

export interface Position {
  generation: string;
  index: number;
  offset: number;
}

export interface ReplicaStatus {
  /** The newest position on the replica, and when its shipment was seen (ms). */
  shipped: { position: Position; at: number } | null;
  /** The oldest position Litestream set out to ship that is not on the replica yet, and when. */
  waiting: { position: Position; since: number } | null;
  /** Litestream's last error line (a failed shipment, a lost connection) and when; kept until the next shipment. */
  last_error: { message: string; at: number } | null;
  /** When the last line was seen (ms). */
  seen_at: number | null;
}

/** "GENERATION/INDEX:OFFSET" read, or null. */
export function parsePosition(raw: unknown): Position | null {
  const m = typeof raw === 'string' ? /^([0-9a-f]+)\/([0-9a-f]{8}):(\d+)$/.exec(raw) : null;
  return m ? { generation: m[1]!, index: Number.parseInt(m[2]!, 16), offset: Number(m[3]) } : null;
}

export const showPosition = (p: Position) => `${p.generation}/${p.index.toString(16).padStart(8, '0')}:${p.offset}`;

/** Whether `a` is at or past `b` (a position of another generation is not comparable: no). */
const atOrPast = (a: Position, b: Position) => a.generation === b.generation && (a.index > b.index || (a.index === b.index && a.offset >= b.offset));

export const emptyStatus = (): ReplicaStatus => ({ shipped: null, waiting: null, last_error: null, seen_at: null });

/** The status after one Litestream line (forwarded by src/ops/replica.ts), seen at `now`. */
export function observe(s: ReplicaStatus, line: LogLine, now: number): ReplicaStatus {
  const position = parsePosition(line.position);
  let { shipped, waiting, last_error } = s;
  if (line.level === 'error') {
    last_error = { message: [line.msg, line.error].filter((x) => typeof x === 'string' && x).join(': '), at: now };
  } else if (line.msg === 'replica sync' && position) {
    if (!(shipped && atOrPast(shipped.position, position)) && !waiting) waiting = { position, since: now };
  } else if ((line.msg === 'wal segment written' || line.msg === 'snapshot written') && position) {
    const end = line.msg === 'wal segment written' ? { ...position, offset: position.offset + (Number(line.sz) || 0) } : position;
    if (!shipped || atOrPast(end, shipped.position)) shipped = { position: end, at: now };
    if (waiting && atOrPast(shipped.position, waiting.position)) waiting = null;
    last_error = null;
  } else if (line.msg === 'sync: new generation') {
    // A new generation starts over from a snapshot: positions of the old one compare with nothing.
    shipped = null;
    waiting = null;
  }
  return { shipped, waiting, last_error, seen_at: now };
}

// The status of each data folder's replica in this process: src/ops/replica.ts feeds it, the
// console's Health page reads it. A server process replicates one data folder.
const statuses = new Map<string, ReplicaStatus>();

export function observeLine(dataDir: string, line: LogLine, now = Date.now()): void {
  statuses.set(dataDir, observe(statuses.get(dataDir) ?? emptyStatus(), line, now));
}

/** The status of the replica of `dataDir` in this process; null when no Litestream here printed a line. */
export const replicaStatus = (dataDir: string): ReplicaStatus | null => statuses.get(dataDir) ?? null;

/** Forgets a folder's status (a stopped replication; tests). */
export const forgetStatus = (dataDir: string): void => void statuses.delete(dataDir);
