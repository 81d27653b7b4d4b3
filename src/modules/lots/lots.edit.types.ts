import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import { UpdateLotInput } from './lots.types';

@InputType('EditLotInput')
export class EditLotInput extends UpdateLotInput {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('EditLotPayload')
export class EditLotPayloadGql {
  @Field(() => ID, { nullable: true, description: 'The lot changed' }) lotId!: string | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
