import { Ctx, Extensions, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { listItems } from '../../graphql/list-items';
import { REFERENCE_ITEMS } from './reference.service';
import { CountryType, EnumEntryType, FuelTypeType, MakerType } from './reference.types';

@Resolver()
export class ReferenceResolver {
  @Extensions(listItems(REFERENCE_ITEMS.makers))
  @Query(() => [MakerType])
  makers(@Ctx() { services }: GraphQLContext): MakerType[] {
    return services.reference.makers();
  }

  @Extensions(listItems(REFERENCE_ITEMS.countries))
  @Query(() => [CountryType])
  countries(@Ctx() { services }: GraphQLContext): CountryType[] {
    return services.reference.countries();
  }

  @Extensions(listItems(REFERENCE_ITEMS.fuels))
  @Query(() => [FuelTypeType])
  fuelTypes(@Ctx() { services }: GraphQLContext): FuelTypeType[] {
    return services.reference.fuels();
  }

  @Extensions(listItems(REFERENCE_ITEMS.wheels))
  @Query(() => [EnumEntryType])
  wheelPositions(@Ctx() { services }: GraphQLContext): EnumEntryType[] {
    return services.reference.wheels();
  }

  @Extensions(listItems(REFERENCE_ITEMS.transmissions))
  @Query(() => [EnumEntryType])
  transmissionTypes(@Ctx() { services }: GraphQLContext): EnumEntryType[] {
    return services.reference.transmissions();
  }
}
