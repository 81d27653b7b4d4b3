import type { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound, type ErrorSource } from '../../core/errors';
import { integerId } from '../../core/ids';
import { Lot, LotType } from './lots.entity';

/**
 * Loads a lot, locked as asked (inside a transaction); 404 `lot_not_found` when there is none.
 * The row is re-read, since the entity manager may hold an older copy from before the lock.
 */
export async function findLot(em: EntityManager, id: unknown, lockMode?: LockMode, source?: ErrorSource): Promise<Lot> {
  const lotId = integerId(id);
  const lot = lotId === null ? null : await em.findOne(Lot, { id: lotId }, { refresh: true, ...(lockMode === undefined ? {} : { lockMode }) });
  if (!lot) throw notFound('lot_not_found', 'no lot with this id', source);
  return lot;
}

/** The organizer of a direct sale (a lot sold without auction), null for an auction; not found as findLot. */
export async function directSaleOrganizer(em: EntityManager, id: unknown, source?: ErrorSource): Promise<string | null> {
  const lot = await findLot(em, id, undefined, source);
  return lot.lotType === LotType.NoAuction ? lot.organizerId : null;
}
