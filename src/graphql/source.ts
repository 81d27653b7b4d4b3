/**
 * The object a field resolver resolves on, as the type of its `@Root()` parameter: a type, not
 * the object type's class. For a class, type-graphql copies the object it is given into a new
 * instance at every call (40 copies for a page of 20 lots with organizer and bids); the mappers'
 * objects are taken as they are.
 */
export type Source<T> = Readonly<T>;
