import { badMutationsPart } from './support/bad-mutations';

// Every GraphQL mutation, called with bad arguments: the walk is split across files (support/bad-mutations.ts).
badMutationsPart(0, 2);
