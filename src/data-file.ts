import { rmSync, writeFileSync, type WriteFileOptions } from 'node:fs';
import { unwritable } from './core/unwritable';
import { StartRefusal } from './start-refusal';

/** A file the start writes under DATA_DIR cannot be written. */
export class DataFileError extends StartRefusal {}

/**
 * Writes `text` to `file`, which the caller makes new, or refuses the start naming the file and
 * why. A file that could not be written whole is removed: on a full disk the file is made but its
 * bytes are not, and an empty lock or seed left behind would trouble the next start.
 */
export function writeNewFile(file: string, text: string, options: WriteFileOptions = {}): void {
  try {
    writeFileSync(file, text, options);
  } catch (err) {
    const refused = unwritable(err);
    if (!refused) throw err;
    rmSync(file, { force: true });
    throw new DataFileError(`cannot write ${file} (${refused.code}): free space on its disk, or set DATA_DIR to a folder this user may write`);
  }
}
