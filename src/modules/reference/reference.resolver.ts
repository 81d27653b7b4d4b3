import { Ctx, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { CountryType, EnumEntryType, FuelTypeType, MakerType } from './reference.types';

@Resolver()
export class ReferenceResolver {
  @Query(() => [MakerType])
  makers(@Ctx() { services }: GraphQLContext): MakerType[] {
    return services.reference.makers();
  }

  @Query(() => [CountryType])
  countries(@Ctx() { services }: GraphQLContext): CountryType[] {
    return services.reference.countries();
  }

  @Query(() => [FuelTypeType])
  fuelTypes(@Ctx() { services }: GraphQLContext): FuelTypeType[] {
    return services.reference.fuels();
  }

  @Query(() => [EnumEntryType])
  wheelPositions(@Ctx() { services }: GraphQLContext): EnumEntryType[] {
    return services.reference.wheels();
  }

  @Query(() => [EnumEntryType])
  transmissionTypes(@Ctx() { services }: GraphQLContext): EnumEntryType[] {
    return services.reference.transmissions();
  }
}
