/**
 * The service runs as in production unless NODE_ENV says otherwise. Outside production graphql-js
 * checks each of its type tests a second time (to name a second copy of itself in the process):
 * about a fifth of the CPU of executing a page of lots (a profile of bench/lots.mjs). Imported
 * first by the entry, before anything reads the variable.
 */
process.env.NODE_ENV ??= 'production';
