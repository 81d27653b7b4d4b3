import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import { CreateLotInput } from './lots.types';

@InputType('AddLotInput', { description: 'The lot of POST /lots: staff of a platform publish it, anyone else files a create_lot request for it' })
export class AddLotInput extends CreateLotInput {
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('AddLotPayload')
export class AddLotPayloadGql {
  @Field(() => ID, { nullable: true, description: 'The lot made, when staff of a platform made it' }) lotId!: string | null;
  @Field(() => ID, { nullable: true, description: 'The create_lot request filed, when the caller is no staff' }) requestId!: string | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
