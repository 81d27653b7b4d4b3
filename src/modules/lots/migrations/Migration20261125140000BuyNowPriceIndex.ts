import { Migration } from '../../../db/migration';

/**
 * The buy-now price sort under filter[price] (issue 14): the sort's index walk fetched every lot
 * from the table to test its price, and a buy-now price follows its lot's price, so the lots
 * priced in the range sat below all the dearer ones (bench/lots.mjs: 27,600 of 100,000 lots
 * fetched and dropped for a page of 20, p50 22 ms).
 * With price_eur in the index the walk tests the price's EUR bounds on the index entries and
 * fetches only the lots in range. The order, and so every other listing by buy-now price, is
 * the same: price_eur follows the unique id. The bid path writes no more: a bid changes
 * price_eur, which lots_price_eur_idx already indexes, so its update was never HOT.
 */
export class Migration20261125140000BuyNowPriceIndex extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index lots_buy_now_price_eur_idx`);
    this.addSql(`create index lots_buy_now_price_eur_idx on lots (buy_now_price_eur, id, price_eur)`);
  }
}
