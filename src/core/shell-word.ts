/** A word as a shell reads it back: quoted when it holds anything but plain path symbols (a space, a letter outside ASCII). */
export const shellWord = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
