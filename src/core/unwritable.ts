/**
 * Why a file system refuses a write, by its errno: the machine's state (a full disk, a read-only
 * mount, no permission), which the operator mends, not a bug of the service.
 */
const UNWRITABLE: Record<string, string> = {
  ENOSPC: 'its disk is full',
  EDQUOT: 'its disk quota is used up',
  EROFS: 'its file system is read-only',
  EACCES: 'the service may not write there',
  EPERM: 'the service may not write there',
  EIO: 'of an I/O error',
};

/** The errno of a write the file system refused, and why, or null for any other failure. */
export function unwritable(err: unknown): { code: string; why: string } | null {
  const code = (err as NodeJS.ErrnoException | null)?.code ?? '';
  return Object.hasOwn(UNWRITABLE, code) ? { code, why: UNWRITABLE[code] } : null;
}
