import { ParticipantState } from '../../src/modules/trading';
import { PARTICIPANT_STATES } from '../../src/modules/lots/lots.sql';

// The lot filters read trading's participant states as stored codes (lots stands below trading):
// the codes they name are the ones trading writes.
describe("the lot filters' participant states", () => {
  it('are the codes of trading’s ParticipantState', () => {
    expect(PARTICIPANT_STATES).toEqual({
      won: [ParticipantState.Winner, ParticipantState.BuyNowWinner],
      lost: [ParticipantState.Rejected, ParticipantState.Lost, ParticipantState.DealCanceled],
      pending: ParticipantState.Pending,
      depositPending: ParticipantState.DepositPending,
    });
  });
});
