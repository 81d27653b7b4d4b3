/** What stops the service's start, told in its message alone: one line, no stack trace. */
export class StartRefusal extends Error {}
