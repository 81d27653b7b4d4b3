// Imports nothing: the GraphQL type of a bid request's answer reads it while the bids area loads.

/**
 * The most bids one request places: its own (none for a max bid), then the answer of the max
 * bids (resolveProxies), the runner-up's last try and the winner's raise.
 */
export const MOST_BIDS_PER_REQUEST = 3;
