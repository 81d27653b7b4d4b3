import { Extensions, Field, ObjectType } from 'type-graphql';
import { listItems } from '../../graphql/list-items';
import { NodeGql } from '../../graphql/types/node';
import { REFERENCE_ITEMS, type EntryList } from './reference.service';

@ObjectType({ description: 'A model family of a maker' })
export class ModelClassType {
  @Field(() => String) name!: string;
  @Field(() => String) prefix!: string;
  @Extensions(listItems(REFERENCE_ITEMS.models))
  @Field(() => [String]) models!: string[];
}

@ObjectType('Maker')
export class MakerType {
  @Field(() => String) name!: string;
  @Extensions(listItems(REFERENCE_ITEMS.classes))
  @Field(() => [ModelClassType]) classes!: ModelClassType[];
}

@ObjectType('Country')
export class CountryType {
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'ISO 3166-1 alpha-3' }) code!: string;
  @Extensions(listItems(REFERENCE_ITEMS.cities))
  @Field(() => [String], { nullable: true }) cities!: string[] | null;
}

@ObjectType('FuelType', { implements: NodeGql })
export class FuelTypeType {
  @Field(() => String) id!: string;
  @Field(() => String, { description: 'The value lot details and filters use' }) value!: string;
  @Field(() => String) verbose!: string;
}

@ObjectType('EnumEntry', { implements: NodeGql, description: 'An entry of a reference list: wheel positions, transmissions' })
export class EnumEntryType {
  @Field(() => String, { description: 'Unique within its list: the global id (`nodeId`) names the list too' }) id!: string;
  @Field(() => String) verbose!: string;
  /** The list it belongs to: not a field, but what its global id names beside its id. */
  list!: EntryList;
}
