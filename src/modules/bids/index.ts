// What other areas may use of bids: nothing outside this folder imports another file of it.
export { BID_COLUMNS, BID_COLUMNS_OF_B, type BidColumns, bidOfColumns } from './bids.columns';
export { Bid, type BidRow } from './bids.entity';
export { bidGql } from './bids.mappers';
export { presentBid } from './bids.presenter';
export { BidConnectionGql, BidGql } from './bids.types';
export { type SeenBid, seenBids } from './bids.view';
export { bidStatsSql } from './bids.stats';
