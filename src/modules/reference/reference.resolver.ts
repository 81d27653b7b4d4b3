import { Ctx, Extensions, Query, Resolver } from 'type-graphql';
import { notFound } from '../../core/errors';
import { registerNode } from '../../graphql/types/node';
import type { GraphQLContext } from '../../graphql/context';
import { listItems } from '../../graphql/list-items';
import { REFERENCE_ITEMS } from './reference.service';
import { CountryType, EnumEntryType, FuelTypeType, MakerType } from './reference.types';
import { runsNoStatement } from '../../graphql/statement-cost';

// Entries of the reference lists refetch from the lists the service answers whole; an entry's id is its list's and its own.
registerNode('FuelType', async (id, { services }) => services.reference.fuel(id) ?? Promise.reject(notFound('fuel_type_not_found', 'no such fuel type')));
registerNode(
  'EnumEntry',
  async (key, { services }) => {
    const colon = key.indexOf(':');
    return services.reference.entry(key.slice(0, colon), key.slice(colon + 1)) ?? Promise.reject(notFound('enum_entry_not_found', 'no such entry'));
  },
  (entry) => `${(entry as EnumEntryType).list}:${entry.id}`,
);

@Resolver()
export class ReferenceResolver {
  @Extensions(listItems(REFERENCE_ITEMS.makers))
  @Extensions(runsNoStatement())
  @Query(() => [MakerType])
  makers(@Ctx() { services }: GraphQLContext): MakerType[] {
    return services.reference.makers();
  }

  @Extensions(listItems(REFERENCE_ITEMS.countries))
  @Extensions(runsNoStatement())
  @Query(() => [CountryType])
  countries(@Ctx() { services }: GraphQLContext): CountryType[] {
    return services.reference.countries();
  }

  @Extensions(listItems(REFERENCE_ITEMS.fuels))
  @Extensions(runsNoStatement())
  @Query(() => [FuelTypeType])
  fuelTypes(@Ctx() { services }: GraphQLContext): FuelTypeType[] {
    return services.reference.fuels();
  }

  @Extensions(listItems(REFERENCE_ITEMS.wheels))
  @Extensions(runsNoStatement())
  @Query(() => [EnumEntryType])
  wheelPositions(@Ctx() { services }: GraphQLContext): EnumEntryType[] {
    return services.reference.wheels();
  }

  @Extensions(listItems(REFERENCE_ITEMS.transmissions))
  @Extensions(runsNoStatement())
  @Query(() => [EnumEntryType])
  transmissionTypes(@Ctx() { services }: GraphQLContext): EnumEntryType[] {
    return services.reference.transmissions();
  }
}
