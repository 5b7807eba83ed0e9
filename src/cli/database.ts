/** The CLI's `--db` directory (classic-level), shared by the node command and `finality app`. */
import { ClassicLevel } from 'classic-level'

/** Opens the --db directory, with a message that names the cause and what to do. */
export async function openDatabase(dir: string): Promise<ClassicLevel<string, Uint8Array>> {
  const db = new ClassicLevel<string, Uint8Array>(dir, { keyEncoding: 'utf8', valueEncoding: 'view' })
  try {
    await db.open()
    return db
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    const why =
      cause?.code === 'LEVEL_LOCKED'
        ? 'another process has it open (another finality on the same --db?); stop that process, or give --db another directory'
        : cause?.code === 'EEXIST' || cause?.code === 'ENOTDIR'
          ? 'the path is a file, not a directory; give --db a directory (it is created when missing)'
          : cause?.code === 'EACCES' || cause?.code === 'EPERM'
            ? 'permission denied; give --db a directory you can write to'
            : `${cause?.message ?? (error instanceof Error ? error.message : String(error))}; check that --db names a directory you can write to`
    throw new Error(`cannot open the database at ${dir}: ${why}`)
  }
}
