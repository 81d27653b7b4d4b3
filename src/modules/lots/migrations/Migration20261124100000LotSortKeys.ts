import { Migration } from '../../../db/migration';

/**
 * What the lot index sorts by, stored and indexed (issue 14): the price sort used to convert
 * every matching lot's price through currency_rates and sort them all (141 ms at 100,000 lots).
 *
 * A lot carries its currency's rate (units per EUR), kept current by the rate updates in their
 * own transaction (currency.reprice.ts) and filled on insert by a trigger; its comparable prices
 * in EUR are STORED generated columns of that rate and its own prices, so the bid path, which
 * changes highest_bid, keeps them current without writing them. The division is the one the
 * listing used to compute, so the converted price (filter[price]) is unchanged to the cent.
 */
export class Migration20261124100000LotSortKeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table lots add column units_per_eur numeric(30, 12) null`);
    this.addSql(`update lots l set units_per_eur = r.units_per_eur from currency_rates r where r.currency = l.currency`);
    this.addSql(`
      alter table lots
        add column price_eur numeric generated always as (
          coalesce(highest_bid, case when lot_type = 0 then buy_now_price else start_price end) / units_per_eur
        ) stored,
        add column buy_now_price_eur numeric generated always as (buy_now_price / units_per_eur) stored`);
    // FOR SHARE waits for a rate update in flight and reads its result, so that a lot inserted
    // meanwhile is never left with the rate that update replaced.
    this.addSql(`
      create function lots_units_per_eur() returns trigger language plpgsql as $$
      begin
        select r.units_per_eur into new.units_per_eur from currency_rates r where r.currency = new.currency for share;
        return new;
      end $$`);
    this.addSql(`create trigger lots_units_per_eur before insert or update of currency on lots for each row execute function lots_units_per_eur()`);
    this.addSql(`create index lots_price_eur_idx on lots (price_eur, id)`);
    this.addSql(`create index lots_buy_now_price_eur_idx on lots (buy_now_price_eur, id)`);
    // The filters that keep few lots read them in the order of the page, id last so that the
    // keyset's tie-break needs no sort: type + state by time_left (the 229 ms listing of issue
    // 14), an organizer's and a model's lots newest first.
    this.addSql(`drop index lots_type_state_idx`);
    this.addSql(`create index lots_type_state_idx on lots (lot_type, lot_state, end_time, id)`);
    this.addSql(`drop index lots_organizer_idx`);
    this.addSql(`create index lots_organizer_idx on lots (organizer_id, start_time desc, id desc)`);
    this.addSql(`create index lots_maker_model_start_idx on lots (lower(maker), lower(model), start_time desc, id desc)`);
  }
}
