import type { RequestContext } from '../../core/context';
import type { Resource, ResourceIdentifier } from '../../rest/document';
import { wireName } from '../../rest/fields';
import type { Embedded } from './lots.embedded';
import type { ListedLot } from './lots.entity';
import { LOT_RELATIONS, type LotRelation } from './lots.relations';

/** The relations an `include` parameter asks for. */
export const relationsOf = (include: ReadonlySet<string>): Set<LotRelation> => new Set(LOT_RELATIONS.filter((r) => include.has(wireName(r))));

export interface LotIncludes {
  included: Resource[];
  /** Relationships of each lot, by lot id; `callbacks` is always there. */
  relationships: Map<string, Record<string, { data: ResourceIdentifier | ResourceIdentifier[] | null }>>;
}

/**
 * What a page of lots shows beside the lots (REST include), as the caller may see it. Its rows
 * (participants, bids, stars...) belong to areas above lots, so lots asks through this port,
 * which the lot-relations area fills.
 */
export interface LotIncluder {
  include(ctx: RequestContext, lots: ListedLot[], relations: ReadonlySet<LotRelation>, embedded?: Embedded): Promise<LotIncludes>;
}
