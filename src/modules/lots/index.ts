// What other areas may use of lots: nothing outside this folder imports another file of it.
export { LOT_GROUPS, type LotGroup, type LotGroupRow, type LotsAggregate, type LotSums, lotStatsSql, MAX_GROUPS, type StatsUnit } from './lots.aggregate';
export type { LotDraft } from './lots.draft';
export { Lot, LOT_STATE_NAMES, LOT_TYPE_NAMES, LotState, LotType, shownHighestBid } from './lots.entity';
export { LOT_FILTER_FIELDS, type LotFilter, lotFilterInput } from './lots.filter';
export { lotFilterOf } from './lots.filter.twins';
export { findLot } from './lots.find';
export { DEFAULT_BATCH_SIZE, IMPORT_SOURCES, importLots, type ImportProgress, type ImportSource, type ImportSummary } from './lots.import';
export { requireBodyLotId } from './lots.input';
export { DEFAULT_PRICE_CURRENCY } from './lots.listing';
export type { LotMaker } from './lots.maker';
export { hasEnded, isClosed, LOT_STATUSES, lotStatus, type LotStatus, notClosedSql, openWhere, overSql, takesBids } from './lots.open';
export { lotAttributes } from './lots.presenter';
export { renderLots } from './lots.routes';
export { lotConnection } from './lots.resolver';
export { LOT_COUNT_QUERY } from './lots.schema';
export type { LotsService, LotsView } from './lots.service';
export { LotConnectionGql, LotFilterInput, LotGql, LotStateGql, LotStatusGql, LotTypeGql } from './lots.types';
export { lotView, type LotView, OWN_CURRENCY } from './lots.view';
