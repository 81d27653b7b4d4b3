import { connectionTypes } from '../../graphql/types/connection';
import { LotCallbackGql, LotStarGql } from '../lots';
import { ParticipantGql } from '../trading';

export const { Connection: ParticipantConnectionGql, Resolver: ParticipantConnectionResolver } = connectionTypes('Participant', () => ParticipantGql);
export const { Connection: LotCallbackConnectionGql, Resolver: LotCallbackConnectionResolver } = connectionTypes('LotCallback', () => LotCallbackGql);
export const { Connection: LotStarConnectionGql, Resolver: LotStarConnectionResolver } = connectionTypes('LotStar', () => LotStarGql);
