// The relations a page of lots may include. A file of its own, importing nothing, so that the query
// schemas that list them load before the loaders and presenters, which need other areas.
export const LOT_RELATIONS = ['participants', 'callbacks', 'platform', 'deposits', 'winnerDetails', 'organizer', 'stars', 'bids', 'messages'] as const;
export type LotRelation = (typeof LOT_RELATIONS)[number];
