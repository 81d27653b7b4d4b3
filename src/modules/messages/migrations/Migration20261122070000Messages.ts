import { Migration } from '../../../db/migration';

export class Migration20261122070000Messages extends Migration {
  override async up(): Promise<void> {
    // The 'simple' configuration lowercases and splits words without a language's stemming or
    // stop words: messages come in every language of the marketplace.
    this.addSql(`
      create table messages (
        id bigserial primary key,
        lot_id bigint not null references lots (id) on delete cascade,
        sender varchar(56) not null references accounts (id) on delete cascade,
        receiver varchar(56) not null references accounts (id) on delete cascade,
        ref_message_id bigint null references messages (id) on delete set null,
        text text not null check (char_length(text) between 1 and 4000),
        read_at timestamptz null,
        created_at timestamptz not null default now(),
        search tsvector generated always as (to_tsvector('simple', text)) stored,
        check (sender <> receiver)
      )`);
    this.addSql(`create index messages_search_idx on messages using gin (search)`);
    this.addSql(`create index messages_lot_idx on messages (lot_id, created_at, id)`);
    // Dialogs gather each account's messages in both directions.
    this.addSql(`create index messages_sender_idx on messages (sender, lot_id, receiver)`);
    this.addSql(`create index messages_receiver_idx on messages (receiver, lot_id, sender)`);
    // Unread counters (GET /messages/unread, dialogs, the lots' messages include); read rows leave it.
    this.addSql(`create index messages_unread_idx on messages (receiver, lot_id, sender) where read_at is null`);
  }
}
