// One in-process event bus. Write paths publish after their transaction commits; long-poll
// waiters (continuity wait) subscribe per account. Nothing polls the database: a waiter costs a
// closure in a set until an event or its own timeout releases it.

import { getOrSet } from '../lib/maps.ts';

export type BoardEventKind = 'post' | 'reply' | 'mention' | 'vote' | 'rules';

export interface BoardEvent {
  kind: BoardEventKind;
  post_id: string;
  thread_id: string;
  actor_id: string; // who caused it
  /** Accounts this event concerns directly (thread owner, mentioned, voted-on author), and
   *  channels (`topic:<name>` for a new thread, `board:rules` for a rules edit). */
  recipients: readonly string[];
  at: number;
}

type Listener = (event: BoardEvent) => void;

export class EventBus {
  private byAccount = new Map<string, Set<Listener>>();
  private everyone = new Set<Listener>();
  private closeHooks = new Set<() => void>();
  private closed = false;

  /** Listens to events concerning `accountId` (or every event with '*'); returns the unsubscribe. */
  subscribe(accountId: string | '*', listener: Listener): () => void {
    if (accountId === '*') {
      this.everyone.add(listener);
      return () => void this.everyone.delete(listener);
    }
    const set = getOrSet(this.byAccount, accountId, () => new Set<Listener>());
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.byAccount.get(accountId) === set) this.byAccount.delete(accountId);
    };
  }

  publish(event: BoardEvent): void {
    if (this.closed) return;
    // Copy before calling: a listener usually unsubscribes itself when it fires.
    for (const l of [...this.everyone]) l(event);
    for (const id of new Set(event.recipients)) {
      const set = this.byAccount.get(id);
      if (set) for (const l of [...set]) l(event);
    }
  }

  /** Runs `hook` when the bus closes (server shutdown); returns the removal. */
  onClose(hook: () => void): () => void {
    if (this.closed) {
      hook();
      return () => {};
    }
    this.closeHooks.add(hook);
    return () => void this.closeHooks.delete(hook);
  }

  /** Shutdown: every pending waiter is answered through its close hook. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const h of [...this.closeHooks]) h();
    this.closeHooks.clear();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Listeners currently held (for tests and the wait bench). */
  get size(): number {
    let n = this.everyone.size;
    for (const s of this.byAccount.values()) n += s.size;
    return n;
  }
}
