/** An inclusive range; a null end is open. */
export interface Range<T> {
  min: T | null;
  max: T | null;
}
