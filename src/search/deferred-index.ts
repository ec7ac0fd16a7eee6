// A group commit's batch indexes its posts once, after its writes (schema/0042_posts_fts_batched.sql):
// one full-text segment a batch instead of one a write. A batch of one write indexes at once, as
// every writer outside the group commit does: deferring it would only add statements.
import { type Db, perDatabase } from '../db/open.ts';
import { onEveryBatch } from '../db/group-commit.ts';
import { deferredIndexStatements } from './index-store.ts';

const registered = new WeakSet<Db>();
const statements = perDatabase(deferredIndexStatements);

/** Makes every batch of two writes or more that the group commit runs on `db` index its posts once, at its end. */
export function deferPostsIndexInBatches(db: Db): void {
  if (registered.has(db)) return;
  registered.add(db);
  let deferred = false;
  onEveryBatch(db, {
    begin(writes) {
      deferred = writes > 1;
      if (deferred) statements(db).defer.run();
    },
    end() {
      if (!deferred) return;
      deferred = false;
      const s = statements(db);
      s.indexPending.run();
      s.clearPending.run();
      s.undefer.run();
    },
  });
}
