import { Migration } from '../../../db/migration';

export class Migration20261122110000ReplayLogged extends Migration {
  override async up(): Promise<void> {
    // An unlogged table is emptied by a crash and never reaches a standby: every signature of the
    // window could then be replayed. Logged, with each claim committed
    // without waiting for its flush (src/auth/authenticate.ts), a crash forgets at most the claims
    // of its last moments.
    this.addSql(`alter table seen_signatures set logged`);
  }
}
